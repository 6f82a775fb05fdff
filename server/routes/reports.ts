/**
 * POST /odoo/reports/payment (spec section 7): answers at once and computes in the background, then mails the
 * result (or a short failure note) to whoever asked. `jobs` lets tests and a graceful stop wait for running work.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '../../shared/domain/constants';
import { isIsoDate } from '../../shared/domain/dates';
import type { ErpClient } from '../erp/types';
import type { Mailer } from '../mail';
import { failureMail, runPaymentReport } from '../reports/payment-report';
import { orEmpty, whenNotGiven } from './reference';

export const REPORT_STARTED = 'The report is being generated. You will receive the results by email';

class HttpError extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message);
  }
}

export class ReportJobs {
  private readonly running = new Set<Promise<void>>();
  track(job: Promise<void>): void {
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }
  /** Resolves when every job started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}

const isoDate = z.string().refine(isIsoDate, 'must be a date YYYY-MM-DD');
const company = z.union([
  z.number().int('is not a valid id').positive('is not a valid id').max(MAX_ID, 'is not a valid id'),
  z.object({ id: z.number().int('is not a valid id').positive('is not a valid id').max(MAX_ID, 'is not a valid id'), name: z.string().max(200).optional() }).passthrough(),
]);
const schema = z.object({
  dateFrom: isoDate,
  dateTo: isoDate,
  companies: z.array(company, { error: whenNotGiven('companies must be a list') }).min(1, 'Choose at least one company').max(100),
  lang: z.enum(['es', 'en']).optional(),
});

const MAX_DAYS = 5 * 366;

export async function reportRoutes(app: FastifyInstance, { erp, mailer, jobs }: { erp: ErpClient; mailer: Mailer; jobs: ReportJobs }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/odoo/reports/payment', { schema: { body: orEmpty(schema) }, config: { permission: 'paymentReport.generate' } }, async (request, reply) => {
    const body = request.body;
    if (body.dateFrom > body.dateTo) throw new HttpError(400, 'dateFrom must not be after dateTo');
    if ((Date.parse(body.dateTo) - Date.parse(body.dateFrom)) / 86_400_000 > MAX_DAYS) throw new HttpError(400, 'The period can be at most five years');
    const user = request.user;
    const ids = [...new Set(body.companies.map((one) => (typeof one === 'number' ? one : one.id)))];
    const foreign = ids.filter((id) => !user.companies.includes(id));
    if (foreign.length) throw new HttpError(403, `You do not have access to company ${foreign.join(', ')}`);
    // Names come from the ERP, not from the request.
    const records = await erp.searchRead('res.company', [['id', 'in', ids]], { fields: ['name'], order: 'name' });
    const companies = records.map((record) => ({ id: record.id, name: String(record.name) }));
    const period = { from: body.dateFrom, to: body.dateTo };
    const lang = body.lang ?? (String(request.headers['accept-language'] ?? '').toLowerCase().startsWith('en') ? 'en' : 'es');
    const log = request.log;
    jobs.track(
      (async () => {
        try {
          const { mail } = await runPaymentReport(erp, { email: user.email, ...period, companies, lang });
          await mailer.send(mail);
        } catch (error) {
          log.error({ err: error }, 'payment report failed');
          await mailer.send(failureMail(user.email, period, lang)).catch((mailError) => log.error({ err: mailError }, 'payment report failure mail not sent'));
        }
      })(),
    );
    return reply.code(202).send({ message: REPORT_STARTED });
  });
}
