import { describe, expect, it } from 'vitest';
import { areaWords, chooseTests } from '../../scripts/test-quick';

const CANDIDATES = [
  'test/unit/orders-arithmetic.test.ts',
  'test/unit/numbers.test.ts',
  'test/component/orders.test.tsx',
  'test/component/moves.test.tsx',
  'test/component/locale-inputs.test.tsx',
  'test/server/orders.test.ts',
  'test/server/moves-create.test.ts',
  'test/server/users-search.test.ts',
];

describe('npm run test:quick picks the tests of the area a change touches', () => {
  it('reads a path as its singular name words, without the words every path has', () => {
    expect([...areaWords('src/resources/orders/OrderDetailDialog.tsx')]).toEqual(['order']);
    expect([...areaWords('src/resources/moves/useMoveReading.ts')]).toEqual(['move', 'reading']);
    expect([...areaWords('server/services/companies.ts')]).toEqual(['company']);
    expect([...areaWords('test/server/moves-create.test.ts')]).toEqual(['move']);
  });

  it("runs an order component's tests on the console and the server, and none of the moves' or users'", () => {
    expect(chooseTests(['src/resources/orders/OrderLineRow.tsx'], CANDIDATES)).toEqual(['test/unit/orders-arithmetic.test.ts', 'test/component/orders.test.tsx', 'test/server/orders.test.ts']);
  });

  it('runs a changed test file itself, and the tests named after a shared rule', () => {
    expect(chooseTests(['test/server/users-search.test.ts'], CANDIDATES)).toEqual(['test/server/users-search.test.ts']);
    expect(chooseTests(['shared/domain/numbers.ts'], CANDIDATES)).toEqual(['test/unit/numbers.test.ts']);
  });
});
