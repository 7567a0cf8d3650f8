// scene-diff.js: the `update` commands (docs/protocol.md) that change one scene of the scene format
// into another a subtree at a time, so that touches on the views that did not change go on (the
// daemon cancels the touches of a view only when that view is removed or replaced). Pure data: no
// DOM, no connection; touchd.js re-exports it and SceneSync sends what it gives.

/** A JSON text of `value` with every object's keys sorted: equal for equal scenes whatever the
 * order their keys were written in. */
export function canonicalJSON(value) {
  return JSON.stringify(value, (key, item) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.keys(item).sort().map((name) => [name, item[name]]))
      : item,
  );
}

function sameExcept(a, b, ...keys) {
  const strip = (object) => Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
  return canonicalJSON(strip(a)) === canonicalJSON(strip(b));
}

/** Whether the ids both lists have come in the same order in each. */
function sameOrder(oldIds, newIds) {
  const kept = new Set(newIds);
  const common = oldIds.filter((id) => kept.has(id));
  const had = new Set(oldIds);
  return canonicalJSON(common) === canonicalJSON(newIds.filter((id) => had.has(id)));
}

function emptySteps() {
  return { removeViews: [], removeRecognizers: [], replaceViews: [], addViews: [], addRecognizers: [], replaceRecognizers: [] };
}

function merge(into, steps) {
  for (const [kind, list] of Object.entries(steps)) into[kind].push(...list);
}

/**
 * The `update` commands that make the daemon's scene `from` into `to`, each the fields of one
 * command (`{op, view | recognizer, parent?, index?}`), in the order to send them; `[]` when the
 * scenes are equal; null when only a whole `scene` push can do it (the scene's top-level keys, a
 * window's own keys such as `size`, `devices`, `grab` or `forward`, or the windows themselves
 * differ, or the window's top-level views were reordered).
 *
 * Per view kept (same id, same parent): a view whose own keys changed (frame, hidden, alpha…) is
 * replaced with its subtree; one whose subviews were reordered, or whose recognizers were reordered
 * or gained one that is not after the others (an added recognizer goes last), is replaced too;
 * otherwise its recognizers are removed, replaced and added one by one and its subviews compared
 * the same way. Views that left are removed, new ones added at their index. The order: views
 * removed, recognizers removed, views replaced, views added, recognizers added, recognizers
 * replaced, so that an id that moves from one place to another has left before it comes back. A
 * step the daemon cannot take in that order (a recognizer moving from one replaced view to
 * another, a requireToFail naming a recognizer not there yet) is refused by it: SceneSync then
 * pushes the whole scene.
 */
export function sceneUpdates(from, to) {
  if (!from || !to || !Array.isArray(from.windows) || !Array.isArray(to.windows)) return null;
  if (!sameExcept(from, to, 'windows') || from.windows.length !== to.windows.length) return null;
  const steps = emptySteps();
  for (let i = 0; i < to.windows.length; i++) {
    const [old, now] = [from.windows[i], to.windows[i]];
    if (!sameExcept(old, now, 'views')) return null;
    if (!compareSubviews(now.id, old.views ?? [], now.views ?? [], steps)) return null;
  }
  return [
    ...steps.removeViews,
    ...steps.removeRecognizers,
    ...steps.replaceViews,
    ...steps.addViews,
    ...steps.addRecognizers,
    ...steps.replaceRecognizers,
  ];
}

/** Adds to `steps` what turns the subviews `olds` of `parent` into `news`; false when the views
 * both have were reordered (then the parent must be replaced, or the whole scene pushed). */
function compareSubviews(parent, olds, news, steps) {
  const oldIds = olds.map((view) => view.id);
  const newIds = news.map((view) => view.id);
  if (!sameOrder(oldIds, newIds)) return false;
  const before = new Map(olds.map((view) => [view.id, view]));
  const after = new Set(newIds);
  for (const view of olds) if (!after.has(view.id)) steps.removeViews.push({ op: 'remove', view: view.id });
  news.forEach((view, index) => {
    const old = before.get(view.id);
    if (old === undefined) steps.addViews.push({ op: 'add', view, parent, index });
    else compareView(old, view, steps);
  });
  return true;
}

function compareView(old, now, steps) {
  if (canonicalJSON(old) === canonicalJSON(now)) return;
  const own = emptySteps();
  if (
    sameExcept(old, now, 'views', 'recognizers') &&
    compareRecognizers(now.id, old.recognizers ?? [], now.recognizers ?? [], own) &&
    compareSubviews(now.id, old.views ?? [], now.views ?? [], own)
  ) {
    merge(steps, own);
  } else {
    steps.replaceViews.push({ op: 'replace', view: now });
  }
}

/** Adds the recognizer steps of one view; false when they cannot give its list in its order
 * (`update` adds a recognizer after the view's others). */
function compareRecognizers(view, olds, news, steps) {
  const named = (list) => list.every((recognizer) => recognizer !== null && typeof recognizer === 'object' && typeof recognizer.id === 'string');
  if (!named(olds) || !named(news)) return false;
  const oldIds = olds.map((recognizer) => recognizer.id);
  const had = new Set(oldIds);
  const kept = news.filter((recognizer) => had.has(recognizer.id));
  const added = news.filter((recognizer) => !had.has(recognizer.id));
  if (!sameOrder(oldIds, news.map((recognizer) => recognizer.id))) return false;
  if (news.slice(0, kept.length).some((recognizer) => !had.has(recognizer.id))) return false;
  const after = new Set(news.map((recognizer) => recognizer.id));
  const before = new Map(olds.map((recognizer) => [recognizer.id, recognizer]));
  for (const id of oldIds) if (!after.has(id)) steps.removeRecognizers.push({ op: 'remove', recognizer: id });
  for (const recognizer of kept) {
    if (canonicalJSON(before.get(recognizer.id)) !== canonicalJSON(recognizer)) {
      steps.replaceRecognizers.push({ op: 'replace', recognizer });
    }
  }
  for (const recognizer of added) steps.addRecognizers.push({ op: 'add', recognizer, parent: view });
  return true;
}
