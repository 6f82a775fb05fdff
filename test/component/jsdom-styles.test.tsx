/**
 * test/component/jsdom-styles.ts lets jsdom skip a stylesheet rule whose selector needs a class the element lacks:
 * over the console's own screen and MUI's components as they render here, no rule skipped for an element ever
 * selects it, so every computed style (what Testing Library calls hidden, what user-event may click) is jsdom's.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Autocomplete, Button, Checkbox, Chip, Dialog, DialogContent, DialogTitle, Switch, TextField, Tooltip } from '@mui/material';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { htmlType, mayMatch, selectorSubjects } from '../support/selector-classes';
import { renderApp, serveDuringTests } from './admin';

const server = setupServer(
  http.get('*/home/counts', () => HttpResponse.json({ validation: { count: 3, lowerBound: false }, drafts: { count: 1, lowerBound: false } })),
  http.post('*/odoo/moves/search', () => HttpResponse.json({ moves: [], total: 0 })),
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [] })),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
  http.get('*/odoo/providers', () => HttpResponse.json([])),
);
serveDuringTests(server);

/** Every style rule of the document (inside @media too), with its selector. */
function styleRules(): CSSStyleRule[] {
  const rules: CSSStyleRule[] = [];
  const visit = (list: CSSRuleList) => {
    for (const rule of Array.from(list)) {
      if ('selectorText' in rule) rules.push(rule as CSSStyleRule);
      else if ('cssRules' in rule) visit((rule as CSSGroupingRule).cssRules);
    }
  };
  for (const sheet of Array.from(document.styleSheets)) visit(sheet.cssRules);
  return rules;
}

/**
 * The rules that would be skipped for an element they select (asked once per rule, of the whole document), and how
 * many rule-element pairs are skipped in all.
 */
function skippedThatMatch(): { wrong: string[]; skipped: number } {
  // jsdom's own default stylesheet (kept out of document.styleSheets), put in the document to be asked too.
  const userAgent = document.createElement('style');
  userAgent.textContent = readFileSync(createRequire(import.meta.url).resolve('jsdom/lib/jsdom/browser/default-stylesheet.css'), 'utf8');
  document.head.append(userAgent);
  const wrong: string[] = [];
  const elements = Array.from(document.querySelectorAll('*')).map((element) => ({ element, classes: new Set(Array.from(element.classList)), tag: htmlType(element) }));
  const byElement = new Map(elements.map((entry) => [entry.element, entry]));
  let skipped = 0;
  const rules = styleRules();
  for (const rule of rules) {
    const alternatives = selectorSubjects(rule.selectorText);
    skipped += elements.filter(({ classes, tag }) => !mayMatch(alternatives, classes, tag)).length;
    let selected: Element[] = [];
    try {
      selected = Array.from(document.querySelectorAll(rule.selectorText));
    } catch {
      // a selector the engine cannot read (a pseudo-element) selects nothing for jsdom's styles either
    }
    for (const element of selected) {
      const entry = byElement.get(element)!;
      if (!mayMatch(alternatives, entry.classes, entry.tag)) wrong.push(`${rule.selectorText} selects <${element.tagName.toLowerCase()} class="${element.className}">`);
    }
  }
  userAgent.remove();
  return { wrong, skipped };
}

describe('rules jsdom skips for an element of another type or without their classes', () => {
  it('never include one that selects it, over the console’s home', async () => {
    renderApp('/', { permissions: ['moves.validate', 'moves.list', 'users.list', 'contacts.list', 'orders.list'] });
    await screen.findByTestId('count-validation');
    const { wrong, skipped } = skippedThatMatch();
    expect(wrong).toEqual([]);
    expect(skipped).toBeGreaterThan(1000);
  });

  it('never include one that selects it, over MUI components open and disabled', async () => {
    render(
      <>
        <Button variant="contained" disabled>
          A
        </Button>
        <Tooltip title="tip" open>
          <Chip label="chip" onDelete={() => undefined} />
        </Tooltip>
        <TextField label="field" error helperText="wrong" multiline />
        <Checkbox defaultChecked />
        <Switch disabled />
        <Autocomplete open options={['uno', 'dos']} renderInput={(params) => <TextField {...params} label="auto" />} />
        <Dialog open>
          <DialogTitle>title</DialogTitle>
          <DialogContent>content</DialogContent>
        </Dialog>
      </>,
    );
    await screen.findByText('uno');
    const { wrong, skipped } = skippedThatMatch();
    expect(wrong).toEqual([]);
    expect(skipped).toBeGreaterThan(100);
  });
});
