import { describe, expect, it } from 'vitest';
import { commentPreview, plainText } from '../../shared/domain/text';
import { nextTriState } from '../../src/custom/inputs/TriStateInput';

describe('tri-state filter (spec: unset, true, false, unset)', () => {
  it('cycles', () => {
    expect(nextTriState(undefined)).toBe(true);
    expect(nextTriState(null)).toBe(true);
    expect(nextTriState(true)).toBe(false);
    expect(nextTriState(false)).toBeUndefined();
  });
});

describe('comment preview (spec: first 100 characters of the earliest non-empty message)', () => {
  it('skips empty messages and cuts at 100 characters', () => {
    const long = 'x'.repeat(150);
    expect(commentPreview([{ body: '' }, { body: '<p></p>' }, { body: `<p>${long}</p>` }, { body: 'later' }])).toBe('x'.repeat(100));
    expect(commentPreview([{ body: '<p>Falta el <b>ticket</b></p>' }])).toBe('Falta el ticket');
    expect(commentPreview([])).toBeNull();
    expect(commentPreview([{ body: false }, { body: '  ' }])).toBeNull();
  });
  it('decodes entities and never keeps markup', () => {
    expect(plainText('&lt;script&gt;alert(1)&lt;/script&gt; ok')).toBe('<script>alert(1)</script> ok');
    expect(plainText('<p>a</p><p>b</p>')).toBe('a\nb');
    expect(plainText('<img src=x onerror=alert(1)>hola')).toBe('hola');
  });
});
