/**
 * The optional language-model step: an OpenAI-compatible /chat/completions endpoint reads the recognised text and
 * answers the same fields as JSON. Anything wrong (network, status, timeout, shape) yields null, and the offline
 * result stands.
 */
import { z } from 'zod';

export interface LlmSettings {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

const moveFields = z.object({
  importe: z.union([z.number(), z.string()]).optional().nullable(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional().nullable(),
  provider: z.string().max(200).optional().nullable(),
  concept: z.string().max(200).optional().nullable(),
});
const cardFields = z.object({
  name: z.string().max(200).optional().nullable(),
  email: z.string().max(320).optional().nullable(),
  website: z.string().max(500).optional().nullable(),
  phone: z.string().max(50).optional().nullable(),
  position: z.string().max(200).optional().nullable(),
});

const PROMPTS = {
  move: 'You read receipts and supplier invoices (Spanish or English). Answer only a JSON object with the keys importe (the total paid, taxes included, as a number with a dot), date (the document date as YYYY-MM-DD), provider (the issuing company) and concept (a short description, at most 8 words). Leave out any key you cannot read; never guess.',
  card: 'You read business cards (Spanish or English). Answer only a JSON object with the keys name, email, website, phone and position. Leave out any key you cannot read; never guess.',
} as const;

async function ask(settings: LlmSettings, kind: keyof typeof PROMPTS, text: string): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs ?? 15_000);
  try {
    const response = await fetch(`${settings.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify({
        model: settings.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: PROMPTS[kind] },
          { role: 'user', content: text.slice(0, 12_000) },
        ],
      }),
      signal: controller.signal,
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { choices?: Array<{ message?: { content?: string } }> };
    const content = body.choices?.[0]?.message?.content ?? '';
    const json = content.match(/\{[\s\S]*\}/)?.[0];
    return json ? JSON.parse(json) : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

const clean = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, one]) => one !== null && one !== undefined && String(one).trim() !== '').map(([key, one]) => [key, typeof one === 'string' ? one.trim() : one]));

export async function llmMoveFields(settings: LlmSettings, text: string): Promise<Record<string, unknown> | null> {
  const parsed = moveFields.safeParse(await ask(settings, 'move', text));
  return parsed.success ? clean(parsed.data) : null;
}

export async function llmCardFields(settings: LlmSettings, text: string): Promise<Record<string, unknown> | null> {
  const parsed = cardFields.safeParse(await ask(settings, 'card', text));
  return parsed.success ? clean(parsed.data) : null;
}
