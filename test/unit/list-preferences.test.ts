import { describe, expect, it } from 'vitest';
import { COLUMN_LISTS, columnsStorageKey, storedColumnChoices } from '../../src/custom/columnChoices';
import { activeFilterCount } from '../../src/custom/ListFilterForm';

/** A local storage holding the given entries. */
function storage(entries: Record<string, string>): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

describe("a list's remembered columns (issue 16)", () => {
  it('each list has its own key', () => {
    expect(columnsStorageKey(COLUMN_LISTS.moves)).toBe('columns_moves-list');
    expect(columnsStorageKey(COLUMN_LISTS.orders)).toBe('columns_order-list');
    expect(columnsStorageKey(COLUMN_LISTS.contacts)).toBe('columns_contact-list');
  });

  it("starts react-admin's store with the hidden columns and their order, per list", () => {
    const choices = storedColumnChoices(
      storage({
        'columns_moves-list': JSON.stringify({ hidden: ['ref', 'uploadedBy'], ranks: [1, 0, 2] }),
        'columns_contact-list': JSON.stringify({ hidden: [] }),
      }),
    );
    expect(choices).toEqual({
      [COLUMN_LISTS.moves]: ['ref', 'uploadedBy'],
      [`${COLUMN_LISTS.moves}_columnRanks`]: [1, 0, 2],
      [COLUMN_LISTS.contacts]: [],
    });
  });

  it('ignores what is not a choice (broken JSON, wrong types): the list shows its default columns', () => {
    expect(
      storedColumnChoices(
        storage({
          'columns_moves-list': '{not json',
          'columns_order-list': JSON.stringify({ hidden: [1, 2], ranks: ['a'] }),
          'columns_contact-list': JSON.stringify('ref'),
        }),
      ),
    ).toEqual({});
  });
});

describe('the filters count on the phone filters button', () => {
  it('counts the filters that hold a value', () => {
    expect(activeFilterCount({})).toBe(0);
    expect(activeFilterCount({ number: '', company: [], validated: null, state: undefined })).toBe(0);
    expect(activeFilterCount({ number: 'F-1', company: ['Acme'], validated: false })).toBe(3);
  });
});
