/**
 * What a selector requires of the element it selects (test/component/jsdom-styles.ts skips a stylesheet rule for an
 * element that is not it): never a type or class the selector does not require of the element it selects.
 */
import { describe, expect, it } from 'vitest';
import { mayMatch, selectorSubjects } from '../support/selector-classes';

describe('selectorSubjects', () => {
  it.each([
    ['.a', [{ classes: ['a'] }]],
    ['.css-1x2y3z-MuiButton-root.Mui-disabled:hover', [{ classes: ['css-1x2y3z-MuiButton-root', 'Mui-disabled'] }]],
    ['.a .b', [{ classes: ['b'] }]],
    ['.a>.b', [{ classes: ['b'] }]],
    ['.a + .b.c', [{ classes: ['b', 'c'] }]],
    ['.a~.b', [{ classes: ['b'] }]],
    ['.a>:not(style)~:not(style)', [null]],
    ['.a:not(.b)', [{ classes: ['a'] }]],
    [':is(.a, .b)', [null]],
    ['.a, div', [{ classes: ['a'] }, { tag: 'div', classes: [] }]],
    ['.a,.b .c', [{ classes: ['a'] }, { classes: ['c'] }]],
    ['[data-x="a .b"] .c', [{ classes: ['c'] }]],
    ['.a[title="x,y"]', [{ classes: ['a'] }]],
    ['.a::before', [{ classes: ['a'] }]],
    ['.a:nth-of-type(2n+1)', [{ classes: ['a'] }]],
    ['DIV.a', [{ tag: 'div', classes: ['a'] }]],
    ['ul ul', [{ tag: 'ul', classes: [] }]],
    ['dialog:not([open])', [{ tag: 'dialog', classes: [] }]],
    ['input[type="checkbox" i]', [{ tag: 'input', classes: [] }]],
    ['abbr[title], acronym[title]', [{ tag: 'abbr', classes: [] }, { tag: 'acronym', classes: [] }]],
    ['[hidden]', [null]],
    [':link', [null]],
    ['*', [null]],
    ['*.a', [{ classes: ['a'] }]],
    ['svg|a', [null]],
    ['[lang|="en"]', [null]],
    ['.a\\:b', [null]],
    ['.añb', [{ classes: ['añb'] }]],
    ['  .a  ', [{ classes: ['a'] }]],
  ])('%s', (selector, expected) => {
    expect(selectorSubjects(selector)).toEqual(expected);
  });
});

describe('mayMatch', () => {
  const classes = new Set(['a', 'b']);
  it('lets a rule be checked when one of its selectors needs nothing or only what the element is', () => {
    expect(mayMatch([{ classes: ['a'] }], classes, 'div')).toBe(true);
    expect(mayMatch([{ classes: ['a', 'b'] }], classes, 'div')).toBe(true);
    expect(mayMatch([{ classes: ['c'] }, null], classes, 'div')).toBe(true);
    expect(mayMatch([{ classes: ['c'] }, { classes: ['b'] }], classes, 'div')).toBe(true);
    expect(mayMatch([{ tag: 'div', classes: ['a'] }], classes, 'div')).toBe(true);
  });
  it('checks a type against an element that is not HTML (its type is matched as written)', () => {
    expect(mayMatch([{ tag: 'foreignobject', classes: [] }], classes, undefined)).toBe(true);
  });
  it('skips a rule every selector of which needs a class the element lacks or another type', () => {
    expect(mayMatch([{ classes: ['a', 'c'] }], classes, 'div')).toBe(false);
    expect(mayMatch([{ classes: ['c'] }, { classes: ['d'] }], classes, 'div')).toBe(false);
    expect(mayMatch([{ classes: ['A'] }], classes, 'div')).toBe(false);
    expect(mayMatch([{ tag: 'span', classes: [] }, { tag: 'p', classes: ['a'] }], classes, 'div')).toBe(false);
  });
});
