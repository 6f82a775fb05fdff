/**
 * Issue 51, item 6: a reading on a busy server says its place in the queue, then its seconds, and the form can be
 * filled meanwhile; a failed reading's reason stays beside the file with a way to read again; a supplier name read
 * with little confidence is said but never offered for creation.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MovePage } from '../../src/resources/moves/MovePage';
import { renderInAdmin, serveDuringTests } from './admin';

const server = setupServer(
  http.get('*/odoo/companies', () =>
    HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] }),
  ),
  http.post('*/users/search', () => HttpResponse.json({ users: [], total: 0 })),
  http.get('*/odoo/providers', () => HttpResponse.json([{ id: 7, name: 'Papelería Sol SL' }, { id: 8, name: 'Perniagaan Zheng Hui' }])),
  http.post('*/odoo/providers/search', () => HttpResponse.json([])),
);
serveDuringTests(server, () => localStorage.clear());

const labels = { es: /Empresa/, en: /Company/ } as const;

async function readDocument(lang: 'es' | 'en') {
  renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang });
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: labels[lang] }));
  fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
  await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).disabled).toBe(false));
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 x'], 'ticket.pdf', { type: 'application/pdf' })] } });
  fireEvent.click(await screen.findByTestId('ai-button'));
}

describe('a reading waiting its turn (issue 51)', () => {
  it.each([
    ['es', 'En cola (posición 2)…', 'En cola (posición 1)…', 'Leyendo el documento…', '31,00'],
    ['en', 'Queued (position 2)…', 'Queued (position 1)…', 'Reading the document…', '31.00'],
  ] as const)('says its place in the queue, then its seconds, and keeps what the user typed meanwhile (%s)', async (lang, second, first, readingText, amount) => {
    const asks: string[] = [];
    let polls = 0;
    let release: () => void = () => undefined;
    const typed = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('*/ocr/move/', ({ request }) => {
        asks.push(request.headers.get('prefer') ?? '');
        return HttpResponse.json({ id: 'job-1', status: 'queued', position: 2 }, { status: 202 });
      }),
      http.get('*/ocr/move/jobs/job-1', async () => {
        polls++;
        if (polls === 1) return HttpResponse.json({ id: 'job-1', status: 'queued', position: 1 }, { status: 202 });
        if (polls === 2) return HttpResponse.json({ id: 'job-1', status: 'reading', seconds: 0 }, { status: 202 });
        await typed;
        return HttpResponse.json({ result: JSON.stringify({ importe: '31.00', concept: 'Papel' }) });
      }),
    );
    await readDocument(lang);
    await waitFor(() => expect(screen.getByTestId('ai-reading').textContent).toBe(second));
    expect(asks).toEqual(['respond-async']);
    await waitFor(() => expect(screen.getByTestId('ai-reading').textContent).toBe(first), { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('ai-reading').textContent).toContain(readingText), { timeout: 5000 });
    // The form is not blocked while the document is read: what is typed now stays.
    const concept = screen.getByTestId('concept') as HTMLInputElement;
    expect(concept.disabled).toBe(false);
    fireEvent.change(concept, { target: { value: 'Tóner' } });
    release();
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe(amount), { timeout: 5000 });
    expect(concept.value).toBe('Tóner');
    expect(screen.queryByTestId('ai-reading')).toBeNull();
  });
});

describe('a failed reading (issue 51)', () => {
  it.each([
    ['es', 'Error al procesar con IA', 'Leer de nuevo', 'Leer el documento ha tardado más de 25 s: pruebe con una foto más nítida o más pequeña', '8,50'],
    ['en', 'Error processing with AI', 'Read again', 'The document took longer than 25 s to read: try a sharper or smaller photo', '8.50'],
  ] as const)('keeps its reason beside the file, with a way to read again (%s)', async (lang, title, again, message, amount) => {
    let asked = 0;
    server.use(
      http.post('*/ocr/move/', () => {
        asked++;
        if (asked === 1) return HttpResponse.json({ statusCode: 504, code: 'extract.timeout', message }, { status: 504 });
        return HttpResponse.json({ result: JSON.stringify({ importe: '8.50' }) });
      }),
    );
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await readDocument(lang);
    const failure = await screen.findByTestId('ai-failure');
    expect(failure.getAttribute('role')).toBe('alert');
    expect(within(failure).getByText(title)).toBeTruthy();
    expect(within(failure).getByText(message)).toBeTruthy();
    // Still there once a notification would have gone: it is part of the form, not a toast.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('ai-failure')).toBeTruthy();
    fireEvent.click(within(failure).getByRole('button', { name: again }));
    await waitFor(() => expect((screen.getByTestId('amount') as HTMLInputElement).value).toBe(amount));
    expect(screen.queryByTestId('ai-failure')).toBeNull();
    expect(asked).toBe(2);
    spy.mockRestore();
  });
});

describe('a supplier name offered for creation (issue 51)', () => {
  const answer = (provider: string, providerConfidence: number) => server.use(http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider, providerConfidence }) })));

  it.each([
    ['es', 'Leído del documento con poca seguridad: «DIST PERNIAGAAN CHENG L)». Búsquelo o escríbalo en la casilla'],
    ['en', 'Read from the document with little certainty: “DIST PERNIAGAAN CHENG L)”. Look it up or type it in the box'],
  ] as const)('is only said, not offered, when read with little confidence (%s)', async (lang, said) => {
    answer('DIST PERNIAGAAN CHENG L)', 0.45);
    await readDocument(lang);
    expect(await screen.findByText(said)).toBeTruthy();
    expect(screen.queryByTestId('create-supplier')).toBeNull();
    expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('');
  });

  it.each([
    ['es', 'Crear el proveedor «Ferretería Nueva SL»'],
    ['en', 'Create the supplier “Ferretería Nueva SL”'],
  ] as const)('is offered when read with confidence and no stored supplier matches (%s)', async (lang, offer) => {
    answer('Ferretería Nueva SL', 0.93);
    await readDocument(lang);
    expect((await screen.findByTestId('create-supplier')).textContent).toBe(offer);
  });

  it.each([
    ['es', 'Leído del documento: «DIST PERNIAGAAN ZHENG HU)»; elegido el proveedor guardado más parecido: revíselo'],
    ['en', 'Read from the document: “DIST PERNIAGAAN ZHENG HU)”; the most similar stored supplier was chosen: check it'],
  ] as const)('is not offered when it is a stored supplier read with OCR slips and a stray word (%s)', async (lang, said) => {
    answer('DIST PERNIAGAAN ZHENG HU)', 0.93);
    await readDocument(lang);
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Perniagaan Zheng Hui'));
    expect(screen.getByText(said)).toBeTruthy();
    expect(screen.queryByTestId('create-supplier')).toBeNull();
  });
});

describe("the company's own supplier found by the server (issue 52)", () => {
  it.each([
    ['es', 7, 'Papelería Sol SL'],
    ['en', 99, 'Proveedor Lejano SL'],
  ] as const)('is asked for the chosen company and chosen as the server found it, with no search (%s, %s)', async (lang, id, name) => {
    const bodies: Array<Record<string, unknown>> = [];
    let searches = 0;
    server.use(
      http.post('*/ocr/move/', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: name, providerId: id, providerMatch: 'vat', vat: 'ESB46123456' }) });
      }),
      http.post('*/odoo/providers/search', () => {
        searches++;
        return HttpResponse.json([]);
      }),
    );
    await readDocument(lang);
    await waitFor(() => expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe(name));
    expect(bodies).toHaveLength(1);
    expect(bodies[0].companyId).toBe(1);
    expect(searches).toBe(0);
    expect(screen.queryByTestId('create-supplier')).toBeNull();
  });
});

describe('a supplier the server found by a name read otherwise (issue 52)', () => {
  it.each([
    ['es', 'Leído del documento: «PAPELERIA S0L SL»; elegido el proveedor guardado más parecido: revíselo'],
    ['en', 'Read from the document: “PAPELERIA S0L SL”; the most similar stored supplier was chosen: check it'],
  ] as const)('is chosen, and what was read is said (%s)', async (lang, said) => {
    server.use(http.post('*/ocr/move/', () => HttpResponse.json({ result: JSON.stringify({ importe: '8.50', provider: 'Papelería Sol SL', providerId: 7, providerMatch: 'name', providerRead: 'PAPELERIA S0L SL' }) })));
    await readDocument(lang);
    expect(await screen.findByText(said)).toBeTruthy();
    expect((screen.getByTestId('supplier') as HTMLInputElement).value).toBe('Papelería Sol SL');
    expect(screen.queryByTestId('create-supplier')).toBeNull();
  });
});
