// Shapes what the notifications service (notifications.ts) returns into the routes' responses (schemas/events.ts).
import type { z } from 'zod';
import type { DeviceRegistered, EmailSettings, MarkedRead, UnreadCount } from '../../schemas/events.js';
import type { emailChoicesOf } from './notifications.js';

export const presentEmailSettings = (choices: Awaited<ReturnType<typeof emailChoicesOf>>): z.input<typeof EmailSettings> => ({
  ok: true as const,
  ...choices,
});

export const presentUnreadCount = (count: number): z.input<typeof UnreadCount> => ({ count });

export const presentMarkedRead = (marked: number): z.input<typeof MarkedRead> => ({ ok: true as const, marked });

export const presentDeviceRegistered = (deviceId: number): z.input<typeof DeviceRegistered> => ({ ok: true as const, device_id: deviceId });
