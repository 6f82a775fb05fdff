import type { BackofficeDataProvider } from '../../providers/dataProvider';

/** Where a reading the server follows as a job stands (POST /ocr/move/ with Prefer: respond-async, issue 51). */
export type ReadingProgress = { status: 'queued'; position: number } | { status: 'reading' };

type Answer = { result: string } | { id: string; status: 'queued' | 'reading'; position?: number };

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A document read by the server's readers, following its job: the place in the queue, then the reading, each told to
 * `onProgress`, until the answer (POST /ocr/move/'s `result`). A server that answers at once (no job) is read as
 * before; a refusal is thrown as the plain POST's would be.
 */
export async function readByJob(dataProvider: BackofficeDataProvider, body: { file: string; companyId?: number }, onProgress: (progress: ReadingProgress) => void, { everyMs = 1000, sleep = pause } = {}): Promise<{ result: string }> {
  let answer = await dataProvider.action<Answer>('moves', 'read', { body, headers: { prefer: 'respond-async' } });
  while (!('result' in answer)) {
    onProgress(answer.status === 'queued' ? { status: 'queued', position: answer.position ?? 1 } : { status: 'reading' });
    await sleep(everyMs);
    answer = await dataProvider.action<Answer>('moves', 'readJob', { params: { id: answer.id } });
  }
  return answer;
}
