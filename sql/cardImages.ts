// The catalogue's side of card images (GET /static/images/cards/{id}/{kind}).
import { z } from 'zod';
import { pgQuery } from './typedQuery.js';

const ImageSubject = z.object({ name: z.string(), collector_number: z.string(), set_name: z.string(), has_kind: z.boolean() });
/** What a card's image shows and whether the catalogue lists that kind of image for it. */
export const cardImageSubject = pgQuery<[cardId: number, kind: string], typeof ImageSubject>('cardImages/card_image_subject', ImageSubject);
