// Card recognition's index, log and confirmations (issue 17): one typed function per query file.
import { z } from 'zod';
import { pgQuery, pgStatement } from './typedQuery.js';

const bytes = z.instanceof(Buffer);

/** Stores one cut of a card picture's features. */
export const upsertRecognitionFeatures = pgStatement<[cardId: number, cut: number, imageSha256: string, features: Buffer]>(
  'recognition/recognition_features_upsert',
);
const Digest = z.object({ card_id: z.number().int(), cut: z.number().int(), image_sha256: z.string() });
/** The picture digests the features of these cards were computed from. */
export const recognitionDigests = pgQuery<[cardIds: number[]], typeof Digest>('recognition/recognition_features_digests', Digest);
const Entry = z.object({ card_id: z.number().int(), cut: z.number().int(), features: bytes });
/** Index entries after (card, cut), in that order, `limit` at most. */
export const recognitionEntriesAfter = pgQuery<[cardId: number, cut: number, limit: number], typeof Entry>(
  'recognition/recognition_features_page',
  Entry,
);
const Version = z.object({ entries: z.number().int(), latest: z.string() });
/** The index's size and newest computation: its version. */
export const recognitionIndexVersion = pgQuery<[], typeof Version>('recognition/recognition_index_version', Version);
const CandidateCard = z.object({
  card_id: z.number().int(),
  name: z.string(),
  collector_number: z.string(),
  set_code: z.string(),
  set_name: z.string(),
  game: z.string(),
});
export type CandidateCardRow = z.infer<typeof CandidateCard>;
/** Name, set and number of candidate cards. */
export const recognitionCards = pgQuery<[cardIds: number[]], typeof CandidateCard>('recognition/recognition_cards', CandidateCard);
const Recorded = z.object({ id: z.coerce.number().int(), created_at: z.string() });
/** Keeps an answered recognition. */
export const recordRecognition = pgQuery<
  [userId: number | null, sessionId: string | null, cardId: number | null, confidence: number, verdict: string, result: string],
  typeof Recorded
>('recognition/recognition_record', Recorded);
const OwnRecognition = z.object({ id: z.coerce.number().int(), card_id: z.number().int().nullable() });
/** A recognition of this user. */
export const recognitionOfUser = pgQuery<[id: number, userId: number], typeof OwnRecognition>(
  'recognition/recognition_of_user',
  OwnRecognition,
);
/** Records a confirmation (nothing when the recognition was confirmed already). */
export const confirmRecognition = pgQuery<
  [recognitionId: number, userId: number, cardId: number, suggestedCardId: number | null, collectionEntryId: number | null],
  typeof Recorded
>('recognition/recognition_confirm', Recorded);
const NumberedCard = z.object({ id: z.number().int(), collector_number: z.string() });
/** A set's cards with their collector numbers, the set named by its upstream key. */
export const cardsOfSetByNumber = pgQuery<[setKey: string], typeof NumberedCard>('recognition/cards_of_set_by_number', NumberedCard);
