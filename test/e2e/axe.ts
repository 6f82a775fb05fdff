/**
 * axe-core in the page (issue 16): what an e2e test calls to audit a screen or a dialog as it is now. The page's
 * context must bypass the CSP (which rightly refuses the audit's inline script): `bypassCSP: true`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Finding {
  where: string;
  impact: string;
  rule: string;
  targets: string[];
}

/** axe's violations on the page as it is now (a screen, or one with a dialog open). */
export async function audit(page: Page, where: string): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.addScriptTag({ content: axeSource });
    // Colours are judged at rest: a label caught mid-transition (MUI's 200 ms colour change) has a passing shade.
    await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  }
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ impact: violation.impact, rule: violation.id, targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')) }));
  });
  return violations.map((violation) => ({ where, ...violation }));
}

export const grave = (findings: Finding[]) => findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');

