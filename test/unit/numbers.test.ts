import { describe, expect, it } from 'vitest';
import { formatNumber, readNumber } from '../../shared/domain/numbers';
import { isFutureDay, readDay } from '../../shared/domain/dates';
import { numberProblem } from '../../src/custom/inputs/numberRules';

const value = (text: string, locale: string, decimals = 2) => {
  const reading = readNumber(text, locale, { decimals });
  return reading.ok ? reading.value : reading.problem;
};

describe('readNumber: numbers as each language writes them (issue 27)', () => {
  it('reads Spanish: a decimal comma, points between thousands', () => {
    expect(value('1234,56', 'es')).toBe(1234.56);
    expect(value('2,5', 'es')).toBe(2.5);
    expect(value('1.234,56', 'es')).toBe(1234.56);
    expect(value(' 1.234,56 € ', 'es')).toBe(1234.56);
    expect(value('1.234', 'es')).toBe(1234);
    expect(value('1.234.567', 'es')).toBe(1234567);
    expect(value('-3,5', 'es')).toBe(-3.5);
    expect(value('7', 'es')).toBe(7);
  });
  it('reads English: a decimal point, commas between thousands', () => {
    expect(value('1,234', 'en')).toBe(1234);
    expect(value('1,234.56', 'en')).toBe(1234.56);
    expect(value('1234.56', 'en')).toBe(1234.56);
    expect(value('1,234,567', 'en')).toBe(1234567);
    expect(value('2.5', 'en')).toBe(2.5);
  });
  it("reads the other language's decimal mark only where nothing else can be meant", () => {
    expect(value('12.50', 'es')).toBe(12.5);
    expect(value('0.5', 'es')).toBe(0.5);
    expect(value('1,234.56', 'es')).toBe(1234.56);
    expect(value('12,50', 'en')).toBe(12.5);
    expect(value('1.234,56', 'en')).toBe(1234.56);
  });
  it('refuses more decimals than the field holds instead of rounding them away or reading thousands', () => {
    // "1,234" in Spanish is 1.234: an amount of cents refuses it (the English habit would mean 1234: never guessed).
    expect(value('1,234', 'es')).toBe('decimals');
    expect(value('12,500', 'es')).toBe('decimals');
    expect(value('1.234', 'en')).toBe('decimals');
    expect(value('0.500', 'es')).toBe('decimals');
    expect(value('12,345', 'es', 3)).toBe(12.345);
    expect(value('12,345', 'en', 3)).toBe(12345);
  });
  it('says what is no number', () => {
    for (const text of ['', 'abc', '12,5,0.1.2', '1..2', ',', '1e5', '1.2.3', '12.34.5', '1,23,4', '5,']) expect(value(text, 'es'), text).toBe('invalid');
    for (const text of ['1.2.3', '1,23,4', '1,2,3.4']) expect(value(text, 'en'), text).toBe('invalid');
  });
  it('writes numbers as each language does, grouped', () => {
    expect(formatNumber(1234.5, 'es', { minDecimals: 2 })).toBe('1.234,50');
    expect(formatNumber(1234.5, 'en', { minDecimals: 2 })).toBe('1,234.50');
    expect(formatNumber(2.5, 'es')).toBe('2,5');
    expect(formatNumber(93.24, 'es', { minDecimals: 2 })).toBe('93,24');
  });
  it('reads back what it writes, in both languages', () => {
    for (const number of [0, 0.5, 2.5, 12.34, 999.99, 1000, 1234.56, 1234567.89, -45.1]) {
      for (const locale of ['es', 'en']) expect(value(formatNumber(number, locale, { minDecimals: 2 }), locale), `${number} ${locale}`).toBe(number);
    }
  });
});

describe('numberProblem: what a number field says, its numbers in the language', () => {
  it('names the bound as the language writes it', () => {
    expect(numberProblem('0,001', 'es', { decimals: 3, min: 0.01 })).toEqual({ message: 'app.inputs.number.atLeast', args: { min: '0,01' } });
    expect(numberProblem(0, 'en', { min: 0.01 })).toEqual({ message: 'app.inputs.number.atLeast', args: { min: '0.01' } });
    expect(numberProblem(2_000_000, 'es', { max: 1_000_000 })).toEqual({ message: 'app.inputs.number.atMost', args: { max: '1.000.000' } });
  });
  it('says an amount of 0 or less in its own words, and a wrong text with the way to write it', () => {
    expect(numberProblem(0, 'es', { positive: 'app.inputs.number.amountPositive' })).toBe('app.inputs.number.amountPositive');
    expect(numberProblem(-5, 'es', { positive: true })).toBe('app.inputs.number.positive');
    expect(numberProblem('abc', 'es', {})).toEqual({ message: 'app.inputs.number.invalid', args: { example: '1.234,56' } });
    expect(numberProblem('abc', 'en', {})).toEqual({ message: 'app.inputs.number.invalid', args: { example: '1,234.56' } });
    expect(numberProblem('1,234', 'es', {})).toEqual({ message: 'app.inputs.number.decimals', args: { decimals: 2 } });
    expect(numberProblem(null, 'es', { positive: true })).toBeUndefined();
  });
});

describe('readDay: days as typed in both languages, day first', () => {
  it('reads dd/mm/aaaa with /, - or . and a two-digit year', () => {
    expect(readDay('25/11/2026')).toBe('2026-11-25');
    expect(readDay('5/1/2026')).toBe('2026-01-05');
    expect(readDay('25-11-26')).toBe('2026-11-25');
    expect(readDay('25.11.2026')).toBe('2026-11-25');
    expect(readDay('2026-11-25')).toBe('2026-11-25');
  });
  it('refuses what is no day (the month first is not a day here)', () => {
    for (const text of ['31/02/2026', '13/13/2026', '25/11', '11/25/2026', 'mañana', '', '2026-02-30']) expect(readDay(text), text).toBeNull();
  });
  it('knows a future day', () => {
    const today = new Date(2026, 10, 25);
    expect(isFutureDay('2026-11-26', today)).toBe(true);
    expect(isFutureDay('2026-11-25', today)).toBe(false);
    expect(isFutureDay('bad', today)).toBe(false);
  });
});
