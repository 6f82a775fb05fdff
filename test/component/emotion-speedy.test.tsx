/**
 * test/component/emotion-speedy.ts has emotion insert its rules as production does: in force here (a few <style>
 * elements for a whole screen), every rule taken (none refused by jsdom), and the same rules, in the same order, as
 * emotion's development way (one element per rule) gives for the same screen.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { Autocomplete, Button, Checkbox, Chip, Dialog, DialogContent, DialogTitle, Switch, TextField } from '@mui/material';

function Screen() {
  return (
    <div>
      <Button variant="contained">Guardar</Button>
      <TextField label="Importe" error helperText="Obligatorio" />
      <Checkbox defaultChecked />
      <Switch />
      <Chip label="Borrador" color="warning" />
      <Autocomplete options={['Acme', 'Beta']} renderInput={(params) => <TextField {...params} label="Empresa" />} />
      <Dialog open>
        <DialogTitle>Factura</DialogTitle>
        <DialogContent>Texto</DialogContent>
      </Dialog>
    </div>
  );
}

/** The rules of the style elements of one emotion cache (by its key), in document order. */
function rulesOf(key: string): string[] {
  return [...document.querySelectorAll(`style[data-emotion^="${key}"]`)].flatMap((style) => [...(style as HTMLStyleElement).sheet!.cssRules].map((rule) => rule.cssText));
}

describe('emotion in component tests', () => {
  afterEach(() => vi.restoreAllMocks());

  it('puts the rules of a screen into a few style elements, refuses none, and they are the rules of one element per rule', () => {
    const error = vi.spyOn(console, 'error');
    const fast = createCache({ key: 'fast' });
    // emotion's development way, which the setup changes: each rule in an element of its own.
    const slow = createCache({ key: 'slow' });
    Object.defineProperty(slow.sheet, 'isSpeedy', { get: () => false, set: () => {} });
    const first = render(<CacheProvider value={fast}><Screen /></CacheProvider>);
    const second = render(<CacheProvider value={slow}><Screen /></CacheProvider>);
    const rules = { fast: rulesOf('fast'), slow: rulesOf('slow') };
    // A sheet per cache and per global style (the dialog's), not one per rule.
    expect(document.querySelectorAll('style[data-emotion^="fast"]').length).toBeLessThanOrEqual(5);
    expect(document.querySelectorAll('style[data-emotion^="slow"]').length).toBeGreaterThan(rules.slow.length * 0.9);
    expect(rules.fast.length).toBeGreaterThan(50);
    expect(rules.fast.map((rule) => rule.replaceAll('fast-', 'k-'))).toEqual(rules.slow.map((rule) => rule.replaceAll('slow-', 'k-')));
    expect(error.mock.calls.filter((call) => String(call[0]).includes('problem inserting'))).toEqual([]);
    first.unmount();
    second.unmount();
  });
});
