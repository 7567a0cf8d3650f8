// Not run: type-checked by scripts/test.sh (`tsc --noEmit --strict`) against touchd.d.ts, so that
// the declarations stay usable the way clients/js/README.md shows.

import {
  Backoff,
  ConnectionLost,
  defaultWebSocket,
  PageScene,
  SceneSync,
  sceneUpdates,
  PIPELINE_TYPES,
  TimeoutError,
  TouchdClient,
  TouchdError,
  type Action,
  type Message,
  type Scene,
  type SceneAccessibility,
} from '../touchd.js';

export async function kiosk(): Promise<void> {
  const WebSocketClass = defaultWebSocket();
  if (WebSocketClass === null) throw new Error('no WebSocket');
  const client = new TouchdClient('ws://127.0.0.1:8765/', { backoff: { maximum: 0.5 }, timeout: 10, WebSocket: WebSocketClass });
  const hello = await client.connect();
  const windowId: string = hello.windows[0].id;
  const reply = await client.subscribe({ types: ['action', 'touches'], views: ['buy', 'photo'] });
  const types: string[] = reply.types;
  await client.subscribe({ types: PIPELINE_TYPES, overflow: 'skip' });

  for await (const message of client) {
    // `type` narrows the union: each message's own fields.
    switch (message.type) {
      case 'action':
        console.log(message.action, message.location?.x, message.scale, message.direction);
        break;
      case 'touches':
        console.log(message.touches.map((t) => t.tapCount));
        break;
      case 'missed':
        console.log(message.count, message.exact ? 'exactly' : 'at most');
        break;
      case 'reconnected':
        console.log(message.restarted, message.hello.instance);
        break;
      case 'gap':
        console.log(message.skipped);
        break;
    }
  }

  try {
    await client.setView('dor', { hidden: true, frame: { x: 0, y: 0, width: 10, height: 10 } });
  } catch (error) {
    if (error instanceof TouchdError) console.log(error.message, error.cmd);
    else if (error instanceof ConnectionLost || error instanceof TimeoutError) console.log(error.message);
  }
  const rotated = await client.setWindow(windowId, { rotation: 90, size: [1280, 800] });
  console.log(rotated.calibration.length, types);
  const status = await client.status();
  console.log(status.counters.actions, status.clients);
  const scene: Scene = {
    version: 1,
    windows: [{ id: 'main', size: { width: 1280, height: 800 }, views: [{ id: 'a', frame: { x: 0, y: 0, width: 9, height: 9 } }] }],
  };
  const pushed = await client.pushScene(scene);
  console.log(pushed.views, pushed.recognizers);
  const updated = await client.update('add', { parent: 'main', view: { id: 'b', frame: { x: 9, y: 0, width: 9, height: 9 } } });
  console.log(updated.index);
  const calibration = await client.calibrate('main', [[100, 100], { x: 1180, y: 100 }, [640, 700]], { timeout: 60 });
  console.log(calibration.matrix, calibration.warning);
  console.log(new Backoff({ initial: 0.1 }).delay(3));

  const next: Message | null = await client.nextMessage(5);
  const stop = client.onMessage((message) => console.log(message.type));
  stop();
  console.log(next);

  const sync = new SceneSync(client);
  const result = await sync.push(scene);
  if (result?.accepted) console.log(result.reply.views, result.updates?.map((u) => u.op));
  else if (result) console.log(result.error.message);
  const steps = sceneUpdates(sync.scene, scene);
  for (const step of steps ?? []) await client.update(step.op, step);
  sync.reset();
  console.log(sync.pushes, sync.error?.message, sync.updates);
  new PageScene(client, { root: document.body, forward: { name: 'Kiosk touchscreen' } });
  new PageScene(client, { forward: 'Kiosk touchscreen', windowKeys: { rotation: 90 } });

  const page = new PageScene(client, { root: document.body, devices: ['ID_PATH=pci-0000:00:14.0-usb-0:2:1.0'], grab: true });
  const first = await page.start();
  const buy = document.getElementById('buy');
  const accessibility: SceneAccessibility | null = buy ? PageScene.accessibilityOf(buy, document.body) : null;
  console.log(accessibility?.label, accessibility?.traits?.includes('button'), page.scene?.windows[0].views?.[0].accessibility?.hint);
  console.log(first?.views, page.scene?.windows[0].size.width, page.elementFor('buy')?.tagName, page.updates, page.forward);
  document.body.addEventListener('touchd', (event) => {
    const detail = event.detail;
    if (detail.type === 'action') {
      const action: Action = detail;
      console.log(action.action);
    }
  });
  document.body.addEventListener('touchd-scene-error', (event) => console.log(event.detail.error.message));
  document.body.addEventListener('touchd-scene', (event) => console.log(event.detail.reply.views, event.detail.updates?.length));
  client.close();
}
