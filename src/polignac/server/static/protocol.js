// @ts-check
// The table protocol's frames (docs/server.md, "The table protocol"), as JSDoc types for the
// table page's modules: the one place that says what the server sends. Types only.

/**
 * A seat of the table's info; a person's seat says who holds it (`store/db.py:person_fields`):
 * `profile`, a signed-in person's page, or `guest`.
 * @typedef {{seat: number, name: string, kind: "human" | "bot", level: string | null,
 *   open: boolean, name_key?: string, name_params?: Record<string, unknown>, profile?: string,
 *   guest?: boolean}} TableSeat
 */

/**
 * The table's public facts (`GameTable.info`).
 * @typedef {object} TableInfo
 * @property {string} id
 * @property {string} preset
 * @property {Record<string, unknown>} overrides the creator's house rules
 * @property {string} suits "french" or "german"
 * @property {string} rank_order
 * @property {boolean} partnerships
 * @property {string | null} declaration
 * @property {number | null} contract_points
 * @property {number[][]} sides each side's seats, or []
 * @property {"penalty" | "points" | "cardPoints" | "side"} taken_unit
 * @property {TableSeat[]} seats
 * @property {"waiting" | "playing" | "between-deals" | "finished"} status
 * @property {number | null} creator
 * @property {boolean} private
 * @property {boolean} hints
 * @property {boolean} paused
 * @property {string | null} rematch
 * @property {boolean} guide
 * @property {string | null} guide_id
 * @property {number} trick_pause seconds
 * @property {Record<string, unknown>} [rules] the resolved rules (preset and house rules)
 * @property {boolean} [rated] a rated table: the result changes the accounts' ratings
 * @property {TimeControl | null} [time_control] null: untimed
 */

/**
 * A table's time control (`core/timecontrol.py`): real time (`base` seconds each for the
 * match, `increment` back after each move), a fixed time a move, or correspondence.
 * @typedef {{kind: "realtime", base: number, increment: number} | {kind: "move", seconds: number}
 *   | {kind: "days", days: number}} TimeControl
 */

/**
 * The seats' clocks at a timed table (`Clocks.view`): each seat's time left at the server's
 * `now` (epoch seconds), the seat whose clock runs and when it reaches zero (epoch seconds),
 * the seats that ran out of time (or left for good).
 * @typedef {{control: TimeControl, label: string, remaining: number[], running: number | null,
 *   deadline: number | null, now: number, flagged: number[]}} Clocks
 */

/**
 * A rating on the shown scale (`Rating.shown`), with its OpenSkill `mu` and `sigma`.
 * @typedef {{rating: number, deviation: number, provisional: boolean, matches?: number,
 *   mu?: number, sigma?: number}} ShownRating
 */

/**
 * A rated match's end: each rated seat's place (a person who left placed last) and rating
 * before and after.
 * @typedef {{type: "ratings", seats: {seat: number, place: number, before: ShownRating,
 *   after: ShownRating}[]}} RatingsFrame
 */

/** @typedef {{leader: number, winner: number, cards: string[]}} PastTrick (deal players) */

/**
 * A trick an act event completed (match seats).
 * @typedef {{leader: number, winner: number, cards: string[], seats: number[]}} DoneTrick
 */

/**
 * The Hearts family's passing, in a deal view: `to`, `from`, `given` and `received` only
 * in a deal with a pass (not a "hold" deal, whose count is 0) and for a seat.
 * @typedef {{direction: string, count: number, to?: number, from?: number, given?: string[],
 *   received?: string[]}} Passing
 */

/**
 * A finished deal's score (`core/scoring.py:DealScore.to_dict`), deal players.
 * @typedef {{scores: number[], lines: ScoreLine[], card_points?: number[], redeal?: boolean,
 *   claim?: {player: number, correct: boolean}}} DealScoreView
 */

/**
 * One deal as a seat sees it (`Deal.view`); players are the deal's, not the table's seats.
 * @typedef {object} DealView
 * @property {number} players
 * @property {number} dealer
 * @property {string} phase "declare", "pass", "play" or "done"
 * @property {number | null} to_act
 * @property {string[] | null} hand
 * @property {number[]} hand_sizes
 * @property {string | null} turn_up
 * @property {string | null} trump
 * @property {string[]} actions
 * @property {PastTrick[]} tricks
 * @property {{leader: number, cards: string[]}} trick
 * @property {number[]} tricks_won
 * @property {string[][]} taken each player's point cards taken
 * @property {number[]} points_taken
 * @property {number | null} declarer
 * @property {string | null} contract
 * @property {string[]} [legal] this seat's legal actions, on its turn
 * @property {Passing} [passing]
 * @property {{player: number, announcement: string}[]} [announcements]
 * @property {number[]} [side_totals] each side's partie score counted now (Pollack)
 * @property {boolean} [hearts_broken] the Hearts family: whether hearts were played
 * @property {DealScoreView} [score] a deal over: its score
 */

/**
 * A finished deal on the score sheet (`tiebreak`: always in a view, in a summary only when true).
 * @typedef {{number?: number, dealer: number, seats: number[], scores: number[], tiebreak?: boolean,
 *   side_scores?: number[], partie?: number, partie_won_by?: number | null,
 *   partie_score?: number[], parties_tally?: number[], game_points?: number[]}} SheetDeal
 */

/**
 * The match as a seat sees it (`Match.view`).
 * @typedef {object} MatchView
 * @property {string} preset
 * @property {string[]} names
 * @property {number | null} seat
 * @property {number[]} totals
 * @property {number} deal_number
 * @property {SheetDeal[]} deals
 * @property {boolean} finished
 * @property {number[]} winners
 * @property {number[]} losers
 * @property {number[]} tied
 * @property {number[]} [places] a finished match: each seat's place from 1 (ties share one)
 * @property {number[][]} [sides]
 * @property {number[]} [partie] each side's score in the partie in progress
 * @property {number[]} [parties_tally]
 * @property {number[]} [parties_won] Pollack: the side that won each finished partie
 * @property {number[][]} [partie_scores] their final scores
 * @property {number[]} [game_points] each side's points in all parties
 * @property {DealView} [deal] the deal in progress
 * @property {number[]} [deal_seats] the match seat of each deal player
 * @property {number} [dealer]
 * @property {DealView} [last_deal] between deals: the deal just over
 * @property {number[]} [last_deal_seats]
 */

/**
 * A seat's presence.
 * @typedef {{seat: number, name: string, kind: "human" | "bot", open: boolean, connected: boolean,
 *   grace_until: number | null, bot_playing: boolean, take_pending?: boolean,
 *   take_name?: string | null, take_approved?: boolean, name_key?: string,
 *   name_params?: Record<string, unknown>, left?: boolean, may_come_back?: boolean,
 *   profile?: string, guest?: boolean}} PresenceSeat
 *   `left`: the person ran out of time or left for good, a bot plays the seat; `may_come_back`:
 *   a casual table, where that person may take it back (`back`)
 */

/**
 * A deal's public verification data (`frames.py:shuffle_info` in a state, a deal event's
 * `shuffle`): all but the seed, which a state carries once that deal is over.
 * @typedef {{deal: number, version?: string, commitment?: string, cuts?: (string | null)[],
 *   log?: unknown, seed?: string}} Shuffle
 */

/**
 * A finished deal's revealed seed (an act event that ended a verifiable deal).
 * @typedef {{deal: number, seed: string, commitment: string}} Reveal
 */

/**
 * An event: a deal, or an action (with the trick it completed, the deal's end...).
 * @typedef {{kind: "deal", dealer: number, seats: number[], hand: string[] | null,
 *   turn_up: string | null, shuffle?: Shuffle}
 *   | {kind: "act", seat: number, action: string, trick?: DoneTrick, deal_over?: boolean,
 *   scores?: number[], match_over?: boolean, passing?: boolean, reveal?: Reveal}} TableEvent
 */

/**
 * One reason in a deal's score (`core/scoring.py:ScoreLine.to_dict`, with the match `seat`
 * of its player; a side's own card-points line has none): `key` and `params` for a detail
 * in words (a `player` parameter is a match seat), `side` in a game scored by sides.
 * @typedef {{player: number, points: number, reason: string, detail: string, key?: string,
 *   params?: Record<string, number>, side?: number, seat?: number}} ScoreLine
 */

/**
 * A finished deal in `core.summary`: its sheet line, its reasons, and a Pollack claim.
 * @typedef {SheetDeal & {number: number, reasons: ScoreLine[], redeal?: boolean,
 *   card_points?: number[], claim?: {seat: number, correct: boolean},
 *   partie_winner?: number[]}} SummaryDeal `partie_winner`: the seats of the side that won
 *   the partie with this deal
 */

/**
 * `core.summary(match)`: every finished deal's scores with their reasons, the totals and,
 * once finished, the winners and losers.
 * @typedef {{preset: string, players: string[], deals: SummaryDeal[], totals: number[],
 *   finished: boolean, winners: number[], losers: number[], sides?: number[][],
 *   partie?: number[], parties_won?: number[], partie_scores?: number[][],
 *   parties_tally?: number[], game_points?: number[], parties?: number[][],
 *   in_progress?: {deal: number, actions: number}}} Summary Pollack's parties: `partie`, each
 *   side's score in the partie on; `parties`, the seats of the side that won each partie
 */

/**
 * @typedef {{type: "state", seq: number, you: number | null, table: TableInfo, view: MatchView,
 *   summary: Summary, presence?: PresenceSeat[], shuffle?: Shuffle | null, clocks?: Clocks | null,
 *   ratings?: RatingsFrame | null}} StateFrame
 * @typedef {{type: "event", seq: number, event: TableEvent, view?: MatchView, summary?: Summary,
 *   presence?: PresenceSeat[]}} EventFrame
 * @typedef {{type: "presence", paused: boolean, seats: PresenceSeat[], clocks?: Clocks | null}}
 *   PresenceFrame
 * @typedef {{type: "rematch", id: string, url: string}} RematchFrame
 * @typedef {{type: "error", rule: string, message: string, seq?: number}} ErrorFrame
 * @typedef {{type: "pong"} | {type: "commitment", version: string, deal: number, commitment: string,
 *   closes: number} | {type: "cut", deal: number, accepted: boolean}
 *   | {type: "cut-refused", deal: number, seat: number, rule: string, message: string, at: number,
 *   closes: number | null, again?: boolean}} OtherFrame
 * @typedef {{type: "chat", seat: number, message: string}} ChatFrame a quick message (not stored)
 * @typedef {StateFrame | EventFrame | PresenceFrame | RematchFrame | ErrorFrame | ChatFrame
 *   | RatingsFrame | OtherFrame} Frame
 */

/**
 * What the page sends.
 * @typedef {{type: "hello", last_seq: number} | {type: "act", action: string, seq?: number}
 *   | {type: "cut", deal: number, value: string, commitment?: string} | {type: "say", message: string}
 *   | {type: "back"} | {type: "ping"}} ClientFrame
 */

export {};
