import type { ResourceViews } from '../generic/types';
import { lazyView } from '../generic/lazyView';

/**
 * The payment report: its page (declared in shared/resources/paymentReport.resource.ts), loaded when first opened. The
 * folder is named after the resource, which is how App finds it; the page itself lives in ../reports.
 */
const paymentReport: ResourceViews = { pages: { report: lazyView(() => import('../reports/PaymentReportPage'), 'PaymentReportPage') } };

export default paymentReport;
