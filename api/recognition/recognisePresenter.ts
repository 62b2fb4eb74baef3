// Shapes a confirmed recognition (recognise.ts) into the response (schemas/recognition.ts): the
// collection entry it added as the collection answers it.
import type { z } from 'zod';
import type { ConfirmedRecognition } from '../../schemas/recognition.js';
import { presentEntry } from '../collection/entriesPresenter.js';
import type { Confirmed } from './recognise.js';

export const presentConfirmed = (c: Confirmed): z.input<typeof ConfirmedRecognition> => ({
  ...c,
  collection_entry: c.collection_entry && presentEntry(c.collection_entry),
});
