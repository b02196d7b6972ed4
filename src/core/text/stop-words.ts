/**
 * Words a topic label never consists of (`labels.ts`): English function words, the verbs and adverbs every
 * narrative repeats, contractions, and the archaic forms of older texts (the KJV's "thee", "unto", "saith").
 * Lower case, with a plain apostrophe (the tokenizer folds ’ into '). A word is compared before stemming, so
 * each inflection a list needs is written out.
 */
const FUNCTION_WORDS = `a about above across after afterwards again against all almost alone along already also although
always am among amongst an and another any anyhow anyone anything anyway anywhere are around as at be became because
become becomes becoming been before beforehand behind being below beside besides between beyond both but by can cannot
could did do does doing done down during each either else elsewhere enough etc even ever every everyone everything
everywhere except few for former formerly from further had has have having he hence her here hereafter hereby herein
hers herself him himself his how however i if in indeed into is it its itself just latter latterly least less many may
me meanwhile might mine more moreover most mostly much must my myself namely neither never nevertheless next no nobody
none noone nor not nothing now nowhere of off often on once one only onto or other others otherwise our ours ourselves
out over own per perhaps rather same several she should since so some somehow someone something sometime sometimes
somewhere still such than that the their theirs them themselves then thence there thereafter thereby therefore therein
thereupon these they this those though through throughout thru thus to together too toward towards under until up upon
us very via was we well were what whatever when whence whenever where whereafter whereas whereby wherein whereupon
wherever whether which while whither who whoever whole whom whose why will with within without would yet you your yours
yourself yourselves`;

/** Verbs, adverbs and adjectives too common in prose to tell one passage from another. */
const COMMON_PROSE = `said say says saying tell told ask asked answer answered reply replied cried exclaimed went go goes going
gone come came comes coming get got getting make made makes making take took taken give gave given know knew known
think thought see saw seen seem seemed seems look looked looking let lets put shall shan't can't won't don't didn't
doesn't isn't wasn't weren't couldn't wouldn't shouldn't mustn't hadn't hasn't haven't i'm i've i'll i'd you're you've
you'll you'd he's she's it's we're we've we'll they're they've they'll that's there's what's let's o oh ah yes sure
certainly quite really soon immediately however almost great little good much many like also upon without two three
first last long way thing things time times day days man men woman women mr mrs ms dr st sir madam miss lady
colonel captain away back believe suppose supposed wish wished want wanted hope hoped means mean meant felt feel find
found heard hear leave left turned began begun kind sort always ever often every rather indeed certain certainly
perfectly replied dear chapter
one two three four five six seven eight nine ten eleven twelve second third fourth fifth`;

/** Archaic function words (Early Modern English: the KJV, Shakespeare). */
const ARCHAIC = `thee thou thy thine thyself ye hath hast doth dost didst shalt wilt art unto saith thereof hither thither
whither yea nay lo behold ere wherefore verily wast wert hadst canst couldest shouldest wouldest mayest mightest
knowest knoweth seest seeth sayest sayeth saidst comest cometh goest goeth makest maketh givest giveth takest taketh
thinkest thinketh hearest heareth whereof whereon wherewith thereon therewith thereto forth`;

/** Every stop word, lower case. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `${FUNCTION_WORDS} ${COMMON_PROSE} ${ARCHAIC}`.split(/\s+/).filter(Boolean),
);

/**
 * The function words alone, modern and archaic (no common prose): what keyword search (`keywords.ts`) leaves out
 * of its index and of questions. Prose words such as "lady", "captain" or "answer" stay searchable there.
 */
export const FUNCTION_WORD_SET: ReadonlySet<string> = new Set(
  `${FUNCTION_WORDS} ${ARCHAIC}`.split(/\s+/).filter(Boolean),
);

/**
 * Titles that may open a two-word name ("Mr. Darcy", "Miss Bingley", "Sir William") but are never a label
 * term alone. The abbreviated ones also keep their full stop from ending a sentence.
 */
export const NAME_TITLES: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'sir',
  'madam',
  'miss',
  'lady',
  'colonel',
  'captain',
]);

/** Titles written with a full stop that does not end the sentence ("Mr. Darcy"). */
export const ABBREVIATED_TITLES: ReadonlySet<string> = new Set(['mr', 'mrs', 'ms', 'dr', 'st']);
