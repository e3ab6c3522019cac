/**
 * A first-in first-out queue on an array with a head index instead of `Array#shift` (which moves
 * every element): a fan-out can hold tens of thousands of entries. The consumed front is dropped
 * once it is over half of the array.
 */
export interface FifoQueue<T> {
  push(item: T): void;
  /** The oldest item, left in place; undefined when empty. */
  peek(): T | undefined;
  /** Removes and returns the oldest item; undefined when empty. */
  shift(): T | undefined;
  readonly size: number;
}

const COMPACT_AFTER = 1024;

export function createFifoQueue<T>(): FifoQueue<T> {
  let items: (T | undefined)[] = [];
  let head = 0;
  return {
    push(item) {
      items.push(item);
    },
    peek() {
      return head < items.length ? items[head] : undefined;
    },
    shift() {
      if (head === items.length) return undefined;
      const item = items[head];
      items[head++] = undefined; // let it be collected now, not at the next compaction
      if (head === items.length) {
        items = [];
        head = 0;
      } else if (head > COMPACT_AFTER && head * 2 > items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    get size() {
      return items.length - head;
    },
  };
}
