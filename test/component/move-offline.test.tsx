/**
 * Offline on the Move page (issue 33, item 2): a send that cannot reach the server is kept in the capture queue with
 * its submission key, the form emptied as after a success and the user told; the queue says how many wait and sends
 * them on demand with the same key. A capture the server warns may repeat a move waits for the user, who reviews it
 * and saves it anyway (same key, onDuplicate=save).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MovePage } from '../../src/resources/moves/MovePage';
import { memoryStore, setCaptureStore } from '../../src/offline/captureStore';
import { renderInAdmin, serveDuringTests } from './admin';

type Answer = 'offline' | 'created' | 'duplicate' | 'refused' | 'down';
let answer: Answer = 'offline';
const sent: Array<{ onDuplicate: string | null; key: string | null }> = [];
const earlier = { id: 41, name: '/', ref: 'Tóner', date: '2026-11-20', amount_total: 12.5, state: 'draft', company_id: [1, 'Acme Iberia SL'], comment: '', attachment_ids: [] };
const server = setupServer(
  http.get('*/odoo/companies', () => HttpResponse.json({ data: [{ id: 1, name: 'Acme Iberia SL', facturas: { journal_id: 1, account: '600' }, gastos: { journal_id: 2, account: '629' }, projects: [] }] })),
  http.get('*/odoo/providers', () => HttpResponse.json([])),
  http.post('*/odoo/moves/create', ({ request }) => {
    const onDuplicate = new URL(request.url).searchParams.get('onDuplicate');
    sent.push({ onDuplicate, key: request.headers.get('idempotency-key') });
    if (answer === 'offline') return HttpResponse.error();
    if (answer === 'duplicate' && onDuplicate === 'warn') {
      return HttpResponse.json({ statusCode: 409, code: 'moves.possibleDuplicate', message: 'Puede que ya esté registrado', duplicates: [{ move: earlier, reasons: ['file'] }] }, { status: 409 });
    }
    if (answer === 'down') return HttpResponse.json({ statusCode: 503, code: 'erp.unavailable', message: 'El ERP no está disponible: inténtelo de nuevo en unos minutos' }, { status: 503 });
    if (answer === 'refused') return HttpResponse.json({ statusCode: 400, code: 'validation', message: 'El importe no es válido' }, { status: 400 });
    return HttpResponse.json({ id: 99 }, { status: 201 });
  }),
);
serveDuringTests(server, () => {
  sent.length = 0;
  localStorage.clear();
});
let store = memoryStore();
beforeEach(() => {
  answer = 'offline';
  store = memoryStore();
  setCaptureStore(store);
  setOnline(true);
});

// The files of this project share their modules and may share a worker's globals: the next file gets the browser's
// own navigator.onLine and the page's own queue back (an offline browser left here made another file's sends queue).
afterAll(() => {
  delete (window.navigator as unknown as Record<string, unknown>).onLine;
  setCaptureStore(undefined);
});

/** What the browser says of its network (navigator.onLine), and its 'online' event when it comes back. */
function setOnline(online: boolean) {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  if (online) window.dispatchEvent(new Event('online'));
}

async function fillInvoice() {
  renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'es' });
  fireEvent.click(await screen.findByTestId('tab-invoice'));
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Empresa/ }));
  fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
  fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Tóner' } });
  fireEvent.change(screen.getByTestId('amount'), { target: { value: '12,50' } });
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 toner'], 'toner.pdf', { type: 'application/pdf' })] } });
  await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
}

async function sendInvoice() {
  await fillInvoice();
  fireEvent.click(screen.getByTestId('send'));
  expect(await screen.findByText('Guardado en este dispositivo (1 pendiente de enviar): se enviará cuando vuelva la red')).toBeTruthy();
}

const queueCount = () => screen.getByTestId('capture-queue-count').textContent;

describe('the Move page without a network', () => {
  it('keeps the move to send, empties the form, and sends it on demand with the same key', async () => {
    await sendInvoice();
    await waitFor(() => expect(queueCount()).toContain('1 pendiente de enviar'));
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByTestId('capture-toggle'));
    expect(within(screen.getByTestId('capture-list')).getByText('Tóner')).toBeTruthy();
    expect(screen.getByTestId('capture-item').textContent).toContain('12,50');

    answer = 'created';
    fireEvent.click(screen.getByTestId('capture-send-now'));
    expect(await screen.findByText('Enviado 1 movimiento guardado sin conexión')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('capture-queue')).toBeNull());
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ onDuplicate: 'warn', key: sent[0].key });
  });

  it('holds a capture the server warns may repeat a move; reviewed and saved anyway with the same key', async () => {
    await sendInvoice();
    answer = 'duplicate';
    fireEvent.click(await screen.findByTestId('capture-send-now'));
    await waitFor(() => expect(queueCount()).toContain('1 necesita su atención'));
    fireEvent.click(screen.getByTestId('capture-toggle'));
    expect(screen.getByTestId('capture-item').textContent).toContain('Puede que ya esté registrado: Borrador 41');
    fireEvent.click(screen.getByTestId('capture-review'));
    const warning = await screen.findByTestId('duplicate-warning');
    fireEvent.click(within(warning).getByTestId('save-anyway'));
    await waitFor(() => expect(screen.queryByTestId('capture-queue')).toBeNull());
    expect(sent.map((one) => one.onDuplicate)).toEqual(['warn', 'warn', 'save']);
    expect(new Set(sent.map((one) => one.key)).size).toBe(1);
  });

  it('discards a capture the user no longer wants, once asked again: a mistaken tap loses nothing', async () => {
    await sendInvoice();
    fireEvent.click(await screen.findByTestId('capture-toggle'));
    fireEvent.click(screen.getByTestId('capture-discard'));
    const asked = await screen.findByRole('dialog');
    expect(asked.textContent).toContain('Se perderán el documento y lo que se haya leído o escrito de él. No se puede deshacer.');
    fireEvent.click(within(asked).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('capture-item')).toBeTruthy();
    fireEvent.click(screen.getByTestId('capture-discard'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(screen.queryByTestId('capture-queue')).toBeNull());
  });

  it('offline, keeps the move on the device at once without trying the network, and sends it once when the network returns (issue 51)', async () => {
    setOnline(false);
    answer = 'created';
    await sendInvoice();
    // Nothing was tried: react-query paused such a send while the browser said it was offline, and it stalled.
    expect(sent).toHaveLength(0);
    await waitFor(() => expect(queueCount()).toContain('1 pendiente de enviar'));
    expect((await store.all()).map((capture) => capture.status)).toEqual(['waiting']);
    // The next one at once: the form is ready again (its send button was left disabled once).
    fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Papel' } });
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '3,10' } });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 papel'], 'papel.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText('Guardado en este dispositivo (2 pendientes de enviar): se enviarán cuando vuelva la red')).toBeTruthy();
    setOnline(true);
    expect(await screen.findByText('Enviados 2 movimientos guardados sin conexión')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('capture-queue')).toBeNull());
    expect(sent).toHaveLength(2);
    expect(await store.all()).toEqual([]);
  });

  it('online, a move created or refused leaves nothing on the device; a refusal keeps the form as typed', async () => {
    answer = 'created';
    await fillInvoice();
    fireEvent.click(screen.getByTestId('send'));
    await waitFor(() => expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe(''));
    expect(await store.all()).toEqual([]);
    answer = 'refused';
    fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Papel' } });
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '3,10' } });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 papel'], 'papel.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText('El importe no es válido')).toBeTruthy();
    expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe('Papel');
    expect(await store.all()).toEqual([]);
    expect(screen.queryByTestId('capture-queue')).toBeNull();
  });

  it('online, a server that answers it is down keeps the move on the device too, with why; sent later with its key (review of issue 51)', async () => {
    answer = 'down';
    await fillInvoice();
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText('El ERP no está disponible: inténtelo de nuevo en unos minutos · Guardado en este dispositivo (1 pendiente de enviar): se enviará cuando vuelva la red')).toBeTruthy();
    await waitFor(() => expect((screen.getByTestId('concept') as HTMLInputElement).value).toBe(''));
    expect((await store.all()).map((capture) => capture.status)).toEqual(['waiting']);
    answer = 'created';
    fireEvent.click(await screen.findByTestId('capture-send-now'));
    expect(await screen.findByText('Enviado 1 movimiento guardado sin conexión')).toBeTruthy();
    expect(sent.map((one) => one.key)).toEqual([sent[0].key, sent[0].key]);
    expect(await store.all()).toEqual([]);
  });

  it('says it in English too', async () => {
    setOnline(false);
    renderInAdmin(<MovePage />, { permissions: ['moves.create'], lang: 'en' });
    fireEvent.click(await screen.findByTestId('tab-invoice'));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme Iberia SL' }));
    fireEvent.change(screen.getByTestId('concept'), { target: { value: 'Toner' } });
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '12.50' } });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['%PDF-1.4 toner'], 'toner.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect((screen.getByTestId('send') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('send'));
    expect(await screen.findByText('Saved on this device (1 waiting to be sent): it will be sent when the network returns')).toBeTruthy();
  });
});
