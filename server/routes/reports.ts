/**
 * POST /odoo/reports/payment (spec section 7): answers at once and computes in the background, then mails the
 * result (or a short failure note) to whoever asked. The work is a row of report_jobs (server/reports/jobs.ts): this
 * process starts on it at once, and any process on the same database takes it up if this one dies meanwhile.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '../../shared/domain/constants';
import type { ErpClient } from '../erp/types';
import { reportCompanies } from '../services/companies';
import type { Mailer } from '../mail';
import type { ReportJobs } from '../reports/jobs';
import { failureMail, runPaymentReport, type ReportLanguage } from '../reports/payment-report';
import { orEmpty } from './support/schemas';
import { HttpError } from '../http-error';
import { messageLocale } from '../messages';
import { rule, whenNotGiven, worded } from '../input';
import { isoDate } from './filters';
import { jobStarted } from './answers';

export const REPORT_STARTED = 'The report is being generated. You will receive the results by email';


/** What a payment report job keeps: whom to mail, the period, the companies with their names, the language. */
interface PaymentReportParams {
  email: string;
  from: string;
  to: string;
  companies: Array<{ id: number; name: string }>;
  /** Companies asked for that the ERP does not give the server: named in the mail, not computed. */
  unreadable?: Array<{ id: number; name: string }>;
  lang: ReportLanguage;
}

const NOT_AN_ID = rule('validation.id');
const company = z.union([
  z.number().int(NOT_AN_ID).positive(NOT_AN_ID).max(MAX_ID, NOT_AN_ID),
  z.object({ id: z.number().int(NOT_AN_ID).positive(NOT_AN_ID).max(MAX_ID, NOT_AN_ID), name: z.string().max(200).optional() }).passthrough(),
]);
const schema = z.object({
  dateFrom: isoDate,
  dateTo: isoDate,
  companies: z.array(company, { error: whenNotGiven('companies must be a list') }).min(1, worded('Choose at least one company')).max(100),
  lang: z.enum(['es', 'en']).optional(),
});

const MAX_DAYS = 5 * 366;

export async function reportRoutes(app: FastifyInstance, { erp, mailer, jobs }: { erp: ErpClient; mailer: Mailer; jobs: ReportJobs }) {
  jobs.handle<PaymentReportParams>('payment', {
    async run({ params }, log) {
      const period = { from: params.from, to: params.to };
      try {
        const { mail } = await runPaymentReport(erp, params);
        await mailer.send(mail);
      } catch (error) {
        log.error({ err: error }, 'payment report failed');
        await mailer.send(failureMail(params.email, period, params.lang)).catch((mailError) => log.error({ err: mailError }, 'payment report failure mail not sent'));
        throw error;
      }
    },
    // Its processes kept stopping while running it: the requester is told, as for a report that failed.
    async giveUp({ params }) {
      await mailer.send(failureMail(params.email, { from: params.from, to: params.to }, params.lang));
    },
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/odoo/reports/payment', { schema: { body: orEmpty(schema), response: { 202: jobStarted } }, config: { permission: 'paymentReport.generate' } }, async (request, reply) => {
    const body = request.body;
    if (body.dateFrom > body.dateTo) throw new HttpError(400, 'reports.range', {}, { field: 'dateFrom' });
    if ((Date.parse(body.dateTo) - Date.parse(body.dateFrom)) / 86_400_000 > MAX_DAYS) throw new HttpError(400, 'reports.period', {}, { field: 'dateTo' });
    const user = request.user;
    const ids = [...new Set(body.companies.map((one) => (typeof one === 'number' ? one : one.id)))];
    const foreign = ids.filter((id) => !user.companies.includes(id));
    if (foreign.length) throw new HttpError(403, 'access.companies', { companies: foreign }, { field: 'companies' });
    const asked = new Map(body.companies.map((one) => (typeof one === 'number' ? [one, undefined] : [one.id, one.name])));
    const { companies, unreadable } = await reportCompanies(erp, ids, asked);
    const period = { from: body.dateFrom, to: body.dateTo };
    const lang = body.lang ?? (messageLocale(request.headers['accept-language']) === 'en' ? 'en' : 'es');
    await jobs.enqueue('payment', { email: user.email, ...period, companies, unreadable, lang } satisfies PaymentReportParams, user.id, request.log);
    return reply.code(202).send({ message: REPORT_STARTED, ...(unreadable.length ? { unreadable } : {}) });
  });
}
