import { getToken, requestLanguage, UnreachableError } from '../../providers/http';
import { watchAnswer } from '../../providers/watchdog';

/** The spec's special mapping (section 8): the server's text for an oversize file becomes a user message key. */
export const FILE_TOO_LARGE = '[Error] File too large';
/** The server's text for a file it cannot read (spec section 8, in English as the spec gives it). */
export const UNSUPPORTED_FILE = 'Failed to load file. Unsupported file format or file corrupted.';

/**
 * Server texts the console says in its own words: the spec's mapping of the oversize file, and the unreadable file's
 * message as a server that answers in English says it (this one answers it in the request's language).
 */
export const SERVER_MESSAGE_KEYS: ReadonlyMap<string, string> = new Map([
  [FILE_TOO_LARGE, 'app.move.fileTooLarge'],
  [UNSUPPORTED_FILE, 'app.validation.unsupportedFile'],
]);

export interface UploadResult<T> {
  status: number;
  json: T;
}

/**
 * POST with upload progress (fetch cannot report it): used for the move creation, whose body carries the file.
 * Rejects with an Error whose message is the server's message, like the other calls.
 */
export function postWithProgress<T>(path: string, body: unknown, onProgress: (fraction: number) => void, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<UploadResult<T>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    // Aborted when the browser says the network has gone: what was on its way is then as unreachable as a refused call.
    if (signal?.aborted) return reject(new UnreachableError());
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.open('POST', path);
    request.setRequestHeader('content-type', 'application/json');
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    // The console's language, not the browser's (which it would send by itself): refusals come back in it.
    request.setRequestHeader('Accept-Language', requestLanguage());
    // The server answers its refusals in the console's language.
    request.setRequestHeader('accept-language', requestLanguage());
    const token = getToken();
    if (token) request.setRequestHeader('authorization', token);
    // A server that takes the upload and then answers nothing, not even /healthz, is given up (src/providers/watchdog.ts).
    // The watch starts again with each part of the body sent: a large photo on a slow network is making progress, and
    // its /healthz question may wait behind it (it was given up as unreachable after 5.5 s, every time).
    let silent = false;
    const watch = () =>
      watchAnswer(() => {
        silent = true;
        request.abort();
      });
    let stopWatching = watch();
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
      stopWatching();
      stopWatching = watch();
    };
    request.onloadend = () => stopWatching();
    request.onabort = () => reject(new UnreachableError(undefined, silent));
    request.onerror = () => reject(new UnreachableError());
    request.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(request.responseText);
      } catch {
        json = null;
      }
      if (request.status >= 200 && request.status < 300) resolve({ status: request.status, json: json as T });
      // Spec section 8: the server's message, else 'Error creating move' for an unexpected status.
      else reject(Object.assign(new Error((json as { message?: string })?.message || 'app.move.createError'), { status: request.status, body: json }));
    };
    request.send(JSON.stringify(body));
  });
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    // A message key: notify() shows it translated ('Error reading file').
    reader.onerror = () => reject(new Error('app.move.readError'));
    reader.readAsDataURL(file);
  });
}

/**
 * Whether a chosen file may be an e-invoice (issue 55), read at once without the AI button: an XML (a FacturaE .xsig
 * too), or a PDF carrying an XML file (a Factur-X, ZUGFeRD or XRechnung PDF: its embedded file's stream says its XML
 * type in bytes no compression hides). A PDF that is not one is then read as the button would read it.
 */
export async function mayBeEInvoice(file: File): Promise<boolean> {
  if (/\.(xml|xsig)$/i.test(file.name) || /[/+]xml$/.test(file.type)) return true;
  if (file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) return false;
  const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(new Error('app.move.readError'));
    reader.readAsArrayBuffer(file);
  });
  const text = new TextDecoder('latin1').decode(bytes);
  return /\/EmbeddedFile\b/.test(text) && /#2Fxml|factur-x\.xml|zugferd-invoice\.xml|xrechnung\.xml/i.test(text);
}
