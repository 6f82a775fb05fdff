/** Issue 33, item 1: what a dropped receipt's row says, its file taken back from the server, the uploads side by side. */
import { describe, expect, it } from 'vitest';
import { draftSummary, fileOfDraft } from '../../src/resources/moves/drafts';
import { stillReading, type MoveDraftRow } from '../../shared/domain/move-drafts';

const draft = (overrides: Partial<MoveDraftRow>): MoveDraftRow => ({
  id: 1, moveType: 'expense', fileName: 'a.pdf', mimetype: 'application/pdf', status: 'read', fields: null, error: null, createdAt: '', updatedAt: '', ...overrides,
});

describe('a dropped receipt', () => {
  it('says the amount, date and supplier read, as each language writes them', () => {
    const read = draft({ fields: { importe: '1234.5', date: '2026/11/20', provider: 'PARKING CENTRO' } });
    expect(draftSummary(read, 'es').map((text) => text.replace(/\u00a0/g, ' '))).toEqual(['1.234,50 €', '20/11/2026', 'PARKING CENTRO']);
    expect(draftSummary(read, 'en')).toEqual(['€1,234.50', '20/11/2026', 'PARKING CENTRO']);
    expect(draftSummary(draft({ fields: { vat: 'B123' } }), 'es')).toEqual([]);
    expect(draftSummary(draft({ status: 'queued' }), 'es')).toEqual([]);
  });

  it('is read while any is queued or being read', () => {
    expect(stillReading([draft({ status: 'read' }), draft({ status: 'queued' })])).toBe(true);
    expect(stillReading([draft({ status: 'reading' })])).toBe(true);
    expect(stillReading([draft({ status: 'read' }), draft({ status: 'failed' })])).toBe(false);
  });

  it('has its file back with its name, type and bytes', async () => {
    const file = fileOfDraft(`data:image/png;base64,${btoa('\x89PNG bytes')}`, 'foto.png');
    expect([file.name, file.type]).toEqual(['foto.png', 'image/png']);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([...'\x89PNG bytes'].map((char) => char.charCodeAt(0))));
  });
});
