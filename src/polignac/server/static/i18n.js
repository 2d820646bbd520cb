// Page text in English, French and German: t(key, params), the language picker, card names.
const STORE = "polignac-lang";
export const LANGS = { en: "English", fr: "Français", de: "Deutsch" };

const EN = {
  "brand.tagline": "trick-avoidance card games: don't take the Jacks",
  "lang.label": "Language",
  // lobby
  "lobby.playNow": "Play now",
  "lobby.playNowText": "You and three bots, French Polignac (Jacks cost points; the first to 20 loses).",
  "lobby.create": "Create table",
  "lobby.yourName": "Your name",
  "lobby.game": "Game",
  "lobby.players": "Players",
  "lobby.seats": "Seats",
  "lobby.seat": "Seat {n}",
  "lobby.you": "you",
  "lobby.bot": "{level} bot",
  "lobby.open": "open (invite a friend)",
  "lobby.house": "House rules (blank: the preset's)",
  "lobby.preset": "preset ({value})",
  "lobby.invites": "Send each friend their own link (it works once):",
  "lobby.goTable": "Go to your table",
  "lobby.tables": "Tables",
  "lobby.noTables": "No tables yet.",
  "lobby.tablesSoon": "The table list is not available on this server yet.",
  "lobby.join": "Join",
  "lobby.watch": "Watch",
  "lobby.replay": "Replay viewer",
  "lobby.replayText": "Step through a recorded match, or upload a record file.",
  "lobby.openReplay": "Open the replay viewer",
  "lobby.scorepad": "Score pad",
  "lobby.scorepadText": "Playing with real cards? Keep the score of any preset here.",
  "lobby.status.playing": "playing",
  "lobby.status.waiting": "waiting for players",
  "lobby.status.finished": "finished",
  "lobby.openSeat": "open seat",
  "rule.threshold": "Match ends at (points)",
  "rule.direction": "Direction of play",
  "rule.declaration": "Declarations",
  "rule.contract_points": "Contract penalty (points)",
  "rule.suits": "Card pictures (suits)",
  // table
  "conn.connecting": "connecting…",
  "conn.connected": "connected",
  "conn.reconnecting": "reconnecting…",
  "conn.notSeated": "not seated at this table",
  "conn.noTable": "no such table",
  "table.title": "{preset} · deal {n}",
  "table.record": "Record",
  "table.recordPartial": "Record (finished deals only)",
  "table.recordPartialTip": "While the match is being played, the record holds the finished deals only.",
  "table.replay": "Replay",
  "table.spectating": "spectating",
  "table.you": "You",
  "table.seatN": "Seat {n}",
  "table.dealer": "dealer",
  "table.bot": "bot {level}",
  "table.openSeat": "open seat",
  "table.total": "total {total} · tricks {tricks}",
  "table.toPlay": "to play",
  "table.disconnected": "disconnected",
  "table.grace": "back within {time}?",
  "table.botPlaying": "bot playing for {name}",
  "table.takeSeat": "Take this seat",
  "table.startNow": "Start now",
  "table.takePending": "taken at the next deal",
  "table.takeQueued": "You get this seat when this deal ends.",
  "table.takeDropped": "The seat was not handed over: the match is over.",
  "table.waitingForPlayers": "Waiting for the players to take their seats…",
  "table.yourHand": "Your hand",
  "table.hint": "Arrow keys choose a card, Enter plays it, L shows the last trick.",
  "table.lastTrick": "Last trick",
  "table.lastTrickTook": "Last trick: {name} took it.",
  "table.noLastTrick": "No trick has been played yet in this deal.",
  "table.close": "Close",
  "table.trump": "trump {suit}",
  "table.tookTrick": "{name} took the trick.",
  "table.over": "The match is over.",
  "table.dealOver": "The deal is over; the next deal is coming…",
  "table.yourTurnDeclare": "Your turn: declare a contract, or pass.",
  "table.yourTurnPlay": "Your turn: play a highlighted card.",
  "table.waiting": "Waiting for {name}…",
  "table.declared": "{name} declared {contract}.",
  "table.scores": "Scores",
  "table.deal": "Deal",
  "table.totalRow": "Total",
  "table.why": "Deal {n}: why",
  "table.noPoints": "no points",
  "table.side": "Side {n}",
  "table.chart": "Totals over the deals",
  "table.matchOver": "Match over. Winners: {won}. Losers: {lost}.",
  "table.rematch": "Rematch",
  "table.rematchJoin": "Join the rematch",
  "table.rematchWatch": "Watch the rematch",
  "table.rematchFailed": "Rematch failed: {msg}",
  "table.watchReplay": "Watch the replay",
  "table.takeFailed": "Could not take the seat: {msg}",
  "call.pass": "Pass",
  "call.capot": "Declare capot",
  "call.general": "Declare general",
  "call.generale": "Declare la générale",
  "call.claim": "Claim out (21)",
  "call.announce": "Announce {what}",
  "reason.card": "card",
  "reason.tricks": "tricks",
  "reason.first-trick": "first trick",
  "reason.last-trick": "last trick",
  "reason.all-three": "all three",
  "reason.capot-made": "capot made",
  "reason.capot-failed": "capot failed",
  "reason.opponent-capot": "opponent's capot",
  "reason.chelem": "chelem",
  "reason.opponent-chelem": "opponent's chelem",
  "reason.card-points": "card points",
  "reason.announce": "announcement",
  "reason.chips-stake": "stake",
  "reason.chips-pool": "pool",
  "reason.chips-sweep": "sweep",
  "reason.chips-overload": "overload",
  // replay
  "replay.title": "Replay viewer",
  "replay.upload": "Upload a record (.json)",
  "replay.loading": "Loading the record…",
  "replay.bad": "This record does not replay: {msg}",
  "replay.prevDeal": "◀◀ Previous deal",
  "replay.prevCard": "◀ Previous",
  "replay.nextCard": "Next ▶",
  "replay.nextDeal": "Next deal ▶▶",
  "replay.keys": "Keys: ← → step, PageUp/PageDown or ↑ ↓ change deal, Home/End.",
  "replay.position": "Deal {deal} of {deals} · action {step} of {steps}",
  "replay.start": "The cards as dealt.",
  "replay.played": "{name} played {card}.",
  "replay.called": "{name}: {action}.",
  "replay.dealScore": "Score of this deal",
  "replay.partial": "This match is still being played: the record holds its finished deals only.",
  "replay.empty": "No deal has finished yet.",
  "replay.pick": "Upload a record file to replay it.",
  "replay.download": "Download this record",
};

const FR = {
  "brand.tagline": "jeux de plis à éviter : ne prenez pas les valets",
  "lang.label": "Langue",
  "lobby.playNow": "Jouer maintenant",
  "lobby.playNowText": "Vous et trois robots, Polignac à la française (les valets coûtent des points ; le premier à 20 perd).",
  "lobby.create": "Créer une table",
  "lobby.yourName": "Votre nom",
  "lobby.game": "Jeu",
  "lobby.players": "Joueurs",
  "lobby.seats": "Places",
  "lobby.seat": "Place {n}",
  "lobby.you": "vous",
  "lobby.bot": "robot {level}",
  "lobby.open": "libre (inviter un ami)",
  "lobby.house": "Règles maison (vide : celles du jeu)",
  "lobby.preset": "du jeu ({value})",
  "lobby.invites": "Envoyez à chaque ami son propre lien (valable une fois) :",
  "lobby.goTable": "Aller à votre table",
  "lobby.tables": "Tables",
  "lobby.noTables": "Aucune table pour l'instant.",
  "lobby.tablesSoon": "La liste des tables n'est pas encore disponible sur ce serveur.",
  "lobby.join": "Rejoindre",
  "lobby.watch": "Regarder",
  "lobby.replay": "Relecture",
  "lobby.replayText": "Rejouez une partie enregistrée, ou envoyez un fichier de partie.",
  "lobby.openReplay": "Ouvrir la relecture",
  "lobby.scorepad": "Feuille de marque",
  "lobby.scorepadText": "Vous jouez avec de vraies cartes ? Tenez ici les scores de n'importe quel jeu.",
  "lobby.status.playing": "en cours",
  "lobby.status.waiting": "en attente de joueurs",
  "lobby.status.finished": "terminée",
  "lobby.openSeat": "place libre",
  "rule.threshold": "Fin de partie à (points)",
  "rule.direction": "Sens du jeu",
  "rule.declaration": "Annonces",
  "rule.contract_points": "Pénalité de contrat (points)",
  "rule.suits": "Enseignes des cartes",
  "conn.connecting": "connexion…",
  "conn.connected": "connecté",
  "conn.reconnecting": "reconnexion…",
  "conn.notSeated": "vous n'êtes pas assis à cette table",
  "conn.noTable": "table inconnue",
  "table.title": "{preset} · donne {n}",
  "table.record": "Feuille de partie",
  "table.recordPartial": "Feuille de partie (donnes finies seulement)",
  "table.recordPartialTip": "Pendant la partie, la feuille ne contient que les donnes terminées.",
  "table.replay": "Relecture",
  "table.spectating": "spectateur",
  "table.you": "Vous",
  "table.seatN": "Place {n}",
  "table.dealer": "donneur",
  "table.bot": "robot {level}",
  "table.openSeat": "place libre",
  "table.total": "total {total} · plis {tricks}",
  "table.toPlay": "à jouer",
  "table.disconnected": "déconnecté",
  "table.grace": "de retour d'ici {time} ?",
  "table.botPlaying": "un robot joue pour {name}",
  "table.takeSeat": "Prendre cette place",
  "table.startNow": "Commencer maintenant",
  "table.takePending": "prise à la prochaine donne",
  "table.takeQueued": "Cette place sera à vous à la fin de la donne.",
  "table.takeDropped": "La place n’a pas été cédée : la partie est finie.",
  "table.waitingForPlayers": "En attente des joueurs…",
  "table.yourHand": "Votre main",
  "table.hint": "Flèches : choisir une carte, Entrée : la jouer, L : dernier pli.",
  "table.lastTrick": "Dernier pli",
  "table.lastTrickTook": "Dernier pli : {name} l'a pris.",
  "table.noLastTrick": "Aucun pli n'a encore été joué dans cette donne.",
  "table.close": "Fermer",
  "table.trump": "atout {suit}",
  "table.tookTrick": "{name} prend le pli.",
  "table.over": "La partie est finie.",
  "table.dealOver": "La donne est finie ; la suivante arrive…",
  "table.yourTurnDeclare": "À vous : annoncez un contrat, ou passez.",
  "table.yourTurnPlay": "À vous : jouez une carte en surbrillance.",
  "table.waiting": "On attend {name}…",
  "table.declared": "{name} a annoncé {contract}.",
  "table.scores": "Scores",
  "table.deal": "Donne",
  "table.totalRow": "Total",
  "table.why": "Donne {n} : pourquoi",
  "table.noPoints": "aucun point",
  "table.side": "Camp {n}",
  "table.chart": "Totaux au fil des donnes",
  "table.matchOver": "Partie finie. Gagnants : {won}. Perdants : {lost}.",
  "table.rematch": "Revanche",
  "table.rematchJoin": "Rejoindre la revanche",
  "table.rematchWatch": "Regarder la revanche",
  "table.rematchFailed": "Revanche impossible : {msg}",
  "table.watchReplay": "Voir la relecture",
  "table.takeFailed": "Impossible de prendre la place : {msg}",
  "call.pass": "Passer",
  "call.capot": "Annoncer capot",
  "call.general": "Annoncer général",
  "call.generale": "Annoncer la générale",
  "call.claim": "Sortir (21)",
  "call.announce": "Annoncer {what}",
  "reason.card": "carte",
  "reason.tricks": "plis",
  "reason.first-trick": "premier pli",
  "reason.last-trick": "dernier pli",
  "reason.all-three": "les trois",
  "reason.capot-made": "capot réussi",
  "reason.capot-failed": "capot chuté",
  "reason.opponent-capot": "capot adverse",
  "reason.chelem": "chelem",
  "reason.opponent-chelem": "chelem adverse",
  "reason.card-points": "points des cartes",
  "reason.announce": "annonce",
  "reason.chips-stake": "mise",
  "reason.chips-pool": "pot",
  "reason.chips-sweep": "rafle",
  "reason.chips-overload": "surcharge",
  "replay.title": "Relecture",
  "replay.upload": "Envoyer une feuille de partie (.json)",
  "replay.loading": "Chargement de la partie…",
  "replay.bad": "Cette feuille ne se rejoue pas : {msg}",
  "replay.prevDeal": "◀◀ Donne précédente",
  "replay.prevCard": "◀ Précédent",
  "replay.nextCard": "Suivant ▶",
  "replay.nextDeal": "Donne suivante ▶▶",
  "replay.keys": "Touches : ← → avancer/reculer, PageUp/PageDown ou ↑ ↓ changer de donne, Début/Fin.",
  "replay.position": "Donne {deal} sur {deals} · action {step} sur {steps}",
  "replay.start": "Les cartes telles que distribuées.",
  "replay.played": "{name} joue {card}.",
  "replay.called": "{name} : {action}.",
  "replay.dealScore": "Score de cette donne",
  "replay.partial": "Cette partie est en cours : la feuille ne contient que les donnes terminées.",
  "replay.empty": "Aucune donne n'est encore terminée.",
  "replay.pick": "Envoyez une feuille de partie pour la rejouer.",
  "replay.download": "Télécharger cette feuille",
};

const DE = {
  "brand.tagline": "Stichvermeidungsspiele: keine Buben nehmen",
  "lang.label": "Sprache",
  "lobby.playNow": "Sofort spielen",
  "lobby.playNowText": "Du und drei Bots, französisches Polignac (Buben kosten Punkte; wer zuerst 20 hat, verliert).",
  "lobby.create": "Tisch eröffnen",
  "lobby.yourName": "Dein Name",
  "lobby.game": "Spiel",
  "lobby.players": "Spieler",
  "lobby.seats": "Plätze",
  "lobby.seat": "Platz {n}",
  "lobby.you": "du",
  "lobby.bot": "Bot {level}",
  "lobby.open": "frei (Freund einladen)",
  "lobby.house": "Hausregeln (leer: wie im Spiel)",
  "lobby.preset": "Vorgabe ({value})",
  "lobby.invites": "Schick jedem Freund seinen eigenen Link (gilt einmal):",
  "lobby.goTable": "Zu deinem Tisch",
  "lobby.tables": "Tische",
  "lobby.noTables": "Noch keine Tische.",
  "lobby.tablesSoon": "Die Tischliste gibt es auf diesem Server noch nicht.",
  "lobby.join": "Mitspielen",
  "lobby.watch": "Zuschauen",
  "lobby.replay": "Wiedergabe",
  "lobby.replayText": "Eine aufgezeichnete Partie durchgehen oder eine Datei hochladen.",
  "lobby.openReplay": "Wiedergabe öffnen",
  "lobby.scorepad": "Schreibblock",
  "lobby.scorepadText": "Mit echten Karten spielen? Hier die Punkte jeder Variante aufschreiben.",
  "lobby.status.playing": "läuft",
  "lobby.status.waiting": "wartet auf Spieler",
  "lobby.status.finished": "beendet",
  "lobby.openSeat": "freier Platz",
  "rule.threshold": "Partie endet bei (Punkte)",
  "rule.direction": "Spielrichtung",
  "rule.declaration": "Ansagen",
  "rule.contract_points": "Strafe für Ansagen (Punkte)",
  "rule.suits": "Kartenbild (Farben)",
  "conn.connecting": "verbinde…",
  "conn.connected": "verbunden",
  "conn.reconnecting": "verbinde neu…",
  "conn.notSeated": "kein Platz an diesem Tisch",
  "conn.noTable": "Tisch unbekannt",
  "table.title": "{preset} · Spiel {n}",
  "table.record": "Spielbericht",
  "table.recordPartial": "Spielbericht (nur fertige Spiele)",
  "table.recordPartialTip": "Solange gespielt wird, enthält der Bericht nur die fertigen Spiele.",
  "table.replay": "Wiedergabe",
  "table.spectating": "Zuschauer",
  "table.you": "Du",
  "table.seatN": "Platz {n}",
  "table.dealer": "Geber",
  "table.bot": "Bot {level}",
  "table.openSeat": "freier Platz",
  "table.total": "gesamt {total} · Stiche {tricks}",
  "table.toPlay": "am Zug",
  "table.disconnected": "getrennt",
  "table.grace": "zurück in {time}?",
  "table.botPlaying": "Bot spielt für {name}",
  "table.takeSeat": "Diesen Platz übernehmen",
  "table.startNow": "Jetzt beginnen",
  "table.takePending": "wird im nächsten Spiel übernommen",
  "table.takeQueued": "Sie bekommen diesen Platz, wenn dieses Spiel endet.",
  "table.takeDropped": "Der Platz wurde nicht übergeben: die Partie ist vorbei.",
  "table.waitingForPlayers": "Warten auf die Spieler…",
  "table.yourHand": "Deine Karten",
  "table.hint": "Pfeiltasten wählen eine Karte, Enter spielt sie, L zeigt den letzten Stich.",
  "table.lastTrick": "Letzter Stich",
  "table.lastTrickTook": "Letzter Stich: {name} hat ihn genommen.",
  "table.noLastTrick": "In diesem Spiel wurde noch kein Stich gespielt.",
  "table.close": "Schließen",
  "table.trump": "Trumpf {suit}",
  "table.tookTrick": "{name} nimmt den Stich.",
  "table.over": "Die Partie ist zu Ende.",
  "table.dealOver": "Das Spiel ist aus; das nächste kommt gleich…",
  "table.yourTurnDeclare": "Du bist dran: sag etwas an oder passe.",
  "table.yourTurnPlay": "Du bist dran: spiel eine hervorgehobene Karte.",
  "table.waiting": "Warte auf {name}…",
  "table.declared": "{name} hat {contract} angesagt.",
  "table.scores": "Punkte",
  "table.deal": "Spiel",
  "table.totalRow": "Summe",
  "table.why": "Spiel {n}: warum",
  "table.noPoints": "keine Punkte",
  "table.side": "Partei {n}",
  "table.chart": "Punktestand über die Spiele",
  "table.matchOver": "Partie vorbei. Gewinner: {won}. Verlierer: {lost}.",
  "table.rematch": "Revanche",
  "table.rematchJoin": "Rejoindre la revanche",
  "table.rematchWatch": "Regarder la revanche",
  "table.rematchFailed": "Revanche nicht möglich: {msg}",
  "table.watchReplay": "Wiedergabe ansehen",
  "table.takeFailed": "Platz nicht übernommen: {msg}",
  "call.pass": "Passen",
  "call.capot": "Capot ansagen",
  "call.general": "General ansagen",
  "call.generale": "La générale ansagen",
  "call.claim": "Ausmachen (21)",
  "call.announce": "{what} ansagen",
  "reason.card": "Karte",
  "reason.tricks": "Stiche",
  "reason.first-trick": "erster Stich",
  "reason.last-trick": "letzter Stich",
  "reason.all-three": "alle drei",
  "reason.capot-made": "Capot gewonnen",
  "reason.capot-failed": "Capot verloren",
  "reason.opponent-capot": "Capot des Gegners",
  "reason.chelem": "Schlemm",
  "reason.opponent-chelem": "Schlemm des Gegners",
  "reason.card-points": "Augen",
  "reason.announce": "Ansage",
  "reason.chips-stake": "Einsatz",
  "reason.chips-pool": "Pott",
  "reason.chips-sweep": "Abräumen",
  "reason.chips-overload": "Überladung",
  "replay.title": "Wiedergabe",
  "replay.upload": "Spielbericht hochladen (.json)",
  "replay.loading": "Lade den Spielbericht…",
  "replay.bad": "Dieser Bericht lässt sich nicht abspielen: {msg}",
  "replay.prevDeal": "◀◀ Voriges Spiel",
  "replay.prevCard": "◀ Zurück",
  "replay.nextCard": "Weiter ▶",
  "replay.nextDeal": "Nächstes Spiel ▶▶",
  "replay.keys": "Tasten: ← → schrittweise, Bild↑/Bild↓ oder ↑ ↓ Spiel wechseln, Pos1/Ende.",
  "replay.position": "Spiel {deal} von {deals} · Zug {step} von {steps}",
  "replay.start": "Die Karten wie gegeben.",
  "replay.played": "{name} spielt {card}.",
  "replay.called": "{name}: {action}.",
  "replay.dealScore": "Punkte dieses Spiels",
  "replay.partial": "Diese Partie läuft noch: der Bericht enthält nur die fertigen Spiele.",
  "replay.empty": "Noch kein Spiel ist fertig.",
  "replay.pick": "Lade einen Spielbericht hoch, um ihn abzuspielen.",
  "replay.download": "Diesen Bericht herunterladen",
};

const TEXT = { en: EN, fr: FR, de: DE };

// Card names: ranks and suits per language, for French- and German-suited packs.
const RANKS = {
  en: { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven",
    6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" },
  fr: { A: "As", K: "Roi", Q: "Dame", J: "Valet", T: "Dix", 9: "Neuf", 8: "Huit", 7: "Sept",
    6: "Six", 5: "Cinq", 4: "Quatre", 3: "Trois", 2: "Deux" },
  de: { A: "Ass", K: "König", Q: "Dame", J: "Bube", T: "Zehn", 9: "Neun", 8: "Acht", 7: "Sieben",
    6: "Sechs", 5: "Fünf", 4: "Vier", 3: "Drei", 2: "Zwei" },
};
const GERMAN_RANKS = {
  en: { A: "Sow", K: "King", Q: "Ober", J: "Unter" },
  fr: { A: "Daus", K: "Roi", Q: "Ober", J: "Unter" },
  de: { A: "Daus", K: "König", Q: "Ober", J: "Unter" },
};
const SUITS = {
  en: { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" },
  fr: { C: "Trèfle", D: "Carreau", H: "Cœur", S: "Pique" },
  de: { C: "Kreuz", D: "Karo", H: "Herz", S: "Pik" },
};
const GERMAN_SUITS = {
  en: { C: "Acorns", D: "Bells", H: "Hearts", S: "Leaves" },
  fr: { C: "Glands", D: "Grelots", H: "Cœurs", S: "Feuilles" },
  de: { C: "Eichel", D: "Schellen", H: "Herz", S: "Grün" },
};
// The letters in the card corners.
const INDEX = {
  french: { en: { A: "A", K: "K", Q: "Q", J: "J" }, fr: { A: "A", K: "R", Q: "D", J: "V" },
    de: { A: "A", K: "K", Q: "D", J: "B" } },
  german: { en: { A: "A", K: "K", Q: "O", J: "U" }, fr: { A: "A", K: "R", Q: "O", J: "U" },
    de: { A: "D", K: "K", Q: "O", J: "U" } },
};

function initial() {
  try {
    const saved = localStorage.getItem(STORE);
    if (saved && TEXT[saved]) return saved;
  } catch { /* storage blocked */ }
  for (const l of navigator.languages ?? [navigator.language ?? "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (TEXT[short]) return short;
  }
  return "en";
}

export let lang = initial();
const listeners = [];

/** The text for `key` in the current language, with {name} replaced from `params`. */
export function t(key, params = {}) {
  const text = TEXT[lang][key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Whether `key` has a text (in any language). */
export function has(key) { return key in EN; }

/** Change the language, remember it, re-translate the page and tell the listeners. */
export function setLang(code) {
  if (!TEXT[code]) return;
  lang = code;
  try { localStorage.setItem(STORE, code); } catch { /* storage blocked */ }
  translatePage();
  for (const f of listeners) f(code);
}

/** Call `f(lang)` after every language change. */
export function onLang(f) { listeners.push(f); }

/** Translate the elements marked data-i18n (text), data-i18n-title, data-i18n-aria. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-aria]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAria));
  }
}

/** Fill a <select> with the languages and wire it up. */
export function languagePicker(select) {
  select.replaceChildren(...Object.entries(LANGS).map(([code, label]) => {
    const o = document.createElement("option");
    o.value = code; o.textContent = label; o.selected = code === lang;
    return o;
  }));
  select.setAttribute("aria-label", t("lang.label"));
  select.addEventListener("change", () => setLang(select.value));
  onLang(() => { select.value = lang; select.setAttribute("aria-label", t("lang.label")); });
}

/** The name of card `code` ("QS") in the current language, for a French or German pack. */
export function cardName(code, deck = "french") {
  const german = deck === "german";
  const rank = (german && GERMAN_RANKS[lang][code[0]]) || RANKS[lang][code[0]] || code[0];
  const suit = (german ? GERMAN_SUITS : SUITS)[lang][code[1]] ?? code[1];
  if (lang === "fr") return `${rank} de ${suit.toLowerCase()}`;
  if (lang === "de") return `${suit}-${rank}`;
  return `${rank} of ${suit}`;
}

/** A suit's name in the current language. */
export function suitName(suit, deck = "french") {
  return ((deck === "german" ? GERMAN_SUITS : SUITS)[lang][suit]) ?? suit;
}

/** The corner index of a rank ("Q" -> "D" in French, "O" on a German pack). */
export function rankIndex(rank, deck = "french") {
  if (rank === "T") return "10";
  return INDEX[deck === "german" ? "german" : "french"][lang][rank] ?? rank;
}
