import type { ResourceViews } from '../generic/types';
import { PaymentReportPage } from '../reports/PaymentReportPage';

/**
 * The payment report: its page (declared in shared/resources/paymentReport.resource.ts). The folder is named after the
 * resource, which is how App finds it; the page itself lives in ../reports.
 */
const paymentReport: ResourceViews = { pages: { report: PaymentReportPage } };

export default paymentReport;
