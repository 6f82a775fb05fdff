/**
 * emotion (MUI's styles) writes each CSS rule into a <style> element of its own when not in production, for source
 * maps that tests have no use for: a screen had thousands of stylesheets, and jsdom walked them one by one for every
 * computed style and re-read them after each one added. Here its stylesheets take the rules the way production does
 * (insertRule, many to a <style>): the same rules in the same order, so the same cascade. Measured (bench/test-cpu.ts,
 * issue 53): the whole component project 365 -> 273 s of processor time, 229 -> 179 s of wall time.
 * (emotion's internals: if an upgrade renames the counter, each rule keeps its own element and the suite is slower.)
 */
import { StyleSheet } from '@emotion/sheet';

const insert = StyleSheet.prototype.insert;
StyleSheet.prototype.insert = function (this: StyleSheet & { ctr?: number }, rule: string) {
  if (this.ctr === 0) this.isSpeedy = true;
  insert.call(this, rule);
};
