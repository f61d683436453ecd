import { setFlagsFromString } from 'node:v8';
import { tuneHeap } from '../../src/server';

// The flags themselves cannot be read back from V8: what is set is checked here, what it does is
// measured by the benchmark (docs/performance.md).
jest.mock('node:v8', () => ({ ...jest.requireActual<object>('node:v8'), setFlagsFromString: jest.fn() }));

const set = setFlagsFromString as jest.MockedFunction<typeof setFlagsFromString>;

describe('tuneHeap (the standalone server V8 settings)', () => {
  beforeEach(() => set.mockClear());

  it('sets the heap growth and turns allocation-site pretenuring off', () => {
    tuneHeap(50, {});
    expect(set.mock.calls.map(([flag]) => flag)).toEqual([
      '--heap-growing-percent=50',
      '--no-allocation-site-pretenuring',
    ]);
  });

  it('leaves V8 its own growth factor for 0, and still turns pretenuring off', () => {
    tuneHeap(0, {});
    expect(set.mock.calls.map(([flag]) => flag)).toEqual(['--no-allocation-site-pretenuring']);
  });

  it("leaves each flag given to node itself (NODE_OPTIONS, either spelling, either sense) to node's", () => {
    tuneHeap(50, { NODE_OPTIONS: '--max-old-space-size=128 --allocation-site-pretenuring' });
    expect(set.mock.calls.map(([flag]) => flag)).toEqual(['--heap-growing-percent=50']);
    set.mockClear();
    tuneHeap(50, { NODE_OPTIONS: '--heap_growing_percent=20 --no-allocation_site_pretenuring' });
    expect(set).not.toHaveBeenCalled();
  });

  it('does not take a longer flag for the one it sets', () => {
    tuneHeap(50, { NODE_OPTIONS: '--allocation-site-pretenuring-extra --heap-growing-percentage=1' });
    expect(set.mock.calls.map(([flag]) => flag)).toEqual([
      '--heap-growing-percent=50',
      '--no-allocation-site-pretenuring',
    ]);
  });
});
