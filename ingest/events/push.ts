// Push notifications to registered devices through a pluggable sender. The default writes one
// log line per device (no push provider is reachable from here); a provider (APNs, FCM, Web
// Push) implements the same one method.
import type { Logger } from '../../sql/runtime/log.js';

export type PushMessage = { title: string; body: string; data: Record<string, unknown> };
export type PushDevice = { id: number; platform: string; token: string };

export type PushSender = { name: string; send(device: PushDevice, message: PushMessage): Promise<void> };

export function logPushSender(log: Logger): PushSender {
  return {
    name: 'log',
    async send(device, message) {
      // The token identifies a device: only its first characters reach the log.
      log.info('push', { device_id: device.id, platform: device.platform, token: `${device.token.slice(0, 6)}…`, title: message.title });
    },
  };
}
