/**
 * A write on its way is lost with the page: while one is (a manager's decision sent once its undo message has gone,
 * or at once), leaving or reloading the page asks first, with the browser's own question. react-admin asks the
 * same while an undoable message shows; this covers the moment after it, until the server has answered.
 */
let underWay = 0;

const askFirst = (event: BeforeUnloadEvent) => {
  event.preventDefault();
  // Older browsers ask only when returnValue is set.
  event.returnValue = '';
};

export async function whileSending<T>(send: () => Promise<T>): Promise<T> {
  if (underWay++ === 0) window.addEventListener('beforeunload', askFirst);
  try {
    return await send();
  } finally {
    if (--underWay === 0) window.removeEventListener('beforeunload', askFirst);
  }
}
