"""The passes of method svm over the classifier's decisions: departures from Step 4.

The paper decides each tag alone (webclean/denoise.py); the classifier sees one line
and a little of its context, but main text and noise come in runs, and some lines are
the site's, not the story's, whatever the classifier says of them. Each pass drops
lines the classifier kept (:func:`smooth`), and :func:`tail_lines` and
:func:`margin_lines` ask the classifier again for the text's tail and for the lines
before the located block. Which passes a method runs is its spec's ``smoothing``
(webclean/registry.py); what each brings on sets held out: docs/quality.md, "What the
method adds to the paper". Each pass names the outcome of a line it drops.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ahocorasick_rs import AhoCorasick

from webclean.classifier import SVMParams
from webclean.features import feature_matrix
from webclean.lexicon import NoiseLexicon
from webclean.line_features import LONG_LINE, PROSE_LINK_RATIO, is_prose
from webclean.segment import GROUP_BIT, IN_RELATED, RELATED_NAME, REVIEWS_BIT
from webclean.text import CJK_IDEOGRAPHS, text_length
from webclean.timing import StageTimer, timed
from webclean.tokenize import cjk_chars, ends_sentence
from webclean.units import Unit

LINK_RUN = "link run"  # dropped with a run of all-link lines, not classified (link_runs)
CREDIT = "credit"  # a source or editor line, or a picture's credit, dropped (is_credit)
SEE_ALSO = "see also"  # a "read also" line, another story's headline, dropped (is_see_also)
NOTICE = "notice"  # the site speaking to its reader, a comment section's furniture, a label or control of the page, dropped (is_notice)
RELATED_BOX = "related box"  # a box of other stories named as such, dropped (related_boxes)
EMPTY_HEADING = "empty heading"  # a heading over nothing kept, dropped (empty_headings)
EMPTY_LABEL = "empty label"  # a "Tags:" label whose line is dropped, dropped (empty_labels)
UNSURE_TAIL = "unsure tail"  # after the text's last paragraph, all link or kept with a decision under 1, dropped (tail_lines)
UNSURE_MARGIN = "unsure margin"  # before the block, all link or kept with a decision under 0.25, dropped (margin_lines)
ITEM = "item"  # a line of a page of items, kept with the whole block (items)
REPEAT = "repeat"  # a kept line that copies a kept line before it, shown again by the layout (repeats)
CODE = "code"  # a line of a <pre> inside the text (Unit.code), kept whatever the classifier said (code_lines)
COMMENT = "comment"  # a kept line of the readers' comments under an article, dropped (comment_boxes)
PAST_CORE = "past core"  # a kept line past the box of the block's text and a gap of lines not kept, dropped (past_core)
AUTHOR_BOX = "author box"  # a kept line of a box about the author after the text, dropped (author_boxes)
PROSE = "prose"  # a paragraph of prose of the block, kept when the decisions kept nothing of the page (bare_prose)
FORUM_POST = "forum post"  # a paragraph of prose of the block on a forum's page, kept whatever the classifier said (forum_prose)
FURNITURE = "furniture"  # a line of the page's footer, navigation, banner or asides (Unit.furniture), dropped whatever was decided

# The passes of smooth(), in the order they run; denoise runs tail_lines and
# margin_lines after them, as they ask the classifier again, then items, as it reads
# every other decision, and furniture last, which drops the lines of a footer, a navigation, a banner or an aside whatever kept them.
SMOOTHING_PASSES = (
    "link_runs", "credits", "see_also", "notices", "related_boxes", "empty_headings", "empty_labels", "repeats",
)  # fmt: skip
DENOISE_PASSES = (
    "tail_lines", "margin_lines", "items", "code", "furniture", "comments", "past_core", "author_boxes", "prose", "forum_prose",
)  # fmt: skip
# A paragraph of more than this many characters is the text's own (empty_headings).
TEXT_PARAGRAPH_CHARS = 80
# A credit line: a short line that names the story's source or its editor (来源：新华社,
# 责任编辑：张三). It is the page's metadata (Extraction.source), not its text.
CREDIT_CHARS = 30
_CREDIT_RE = re.compile(r"(?:来源|來源|稿源|责任编辑|責任編輯|责编|編輯|编辑)\s*[:：]")
# A picture's credit: a caption or a footer line that holds a copyright sign or a
# picture label (Foto: dpa, Photo: Getty Images, crédito: …, © AFP), in the languages
# of the dev data. Captions run longer than credit lines.
PICTURE_CREDIT_CHARS = 200
_PICTURE_CREDIT_RE = re.compile(
    r"©|\b(?:foto|fotos|photo|photos|bild|bilder|crédito|credit|credits|kuva|zdjęcie|image|imagen)\s*:", re.IGNORECASE
)
# What every match of _PICTURE_CREDIT_RE holds once case-folded, as for _NOTICE_CUES
# (none with an "i"; "ld" stands for bild and bilder): the pattern opens with a word
# boundary, so it is tried at every position, and most lines with a colon hold no cue.
_PICTURE_CREDIT_CUES = ("©", "foto", "photo", "ld", "créd", "cred", "kuva", "zdję", "mage")
# A label: a short line that ends with a colon ("Tags:", "Last modified:", "Release
# Date:", "Advertisement:"), dropped when the line it labels is (empty_labels).
LABEL_CHARS = 40
# The link_runs pass drops runs of at least this many all-link lines: two links in a row
# are already a list (2 scored above 3 and 4: docs/experiments/quality-history.md, #2b).
MIN_LINK_RUN = 2


def smooth(
    units: Sequence[Unit], kept: Sequence[str | None], beta: int, passes: Sequence[str], link_run: int = MIN_LINK_RUN
) -> list[str | None]:
    """Correct single decisions by their neighbours' and drop the site's lines (method svm).

    - ``link_runs``: every line of a run of ``link_run`` or more all-link lines is
      noise: a list of links (navigation, related articles, tags), never prose; so are
      the short lines (at most β characters) just before and after the run;
    - ``credits``: a line of at most CREDIT_CHARS characters that holds a source or an
      editor's label (来源：, 责任编辑：) is noise: a news page's credit line, which the
      classifier, having seen few, often keeps; and a line of at most
      PICTURE_CREDIT_CHARS with a copyright sign or a picture label;
    - ``see_also``: a line of at most SEE_ALSO_CHARS characters that opens with a "read
      also" label (Lesen Sie auch:, VEA TAMBIÉN:, 延伸阅读：) is noise: another story's
      headline;
    - ``notices``: a line of at most NOTICE_CHARS characters that calls the reader to
      subscribe, sign up or follow, that states the comments' policy or the rights
      reserved, or that asks for JavaScript ("Sign up for our newsletter", "Folgen Sie
      uns auf Twitter", "All rights reserved", "You need to enable JavaScript to run
      this app"), or that is whole a comment section's call, count, state or header
      ("Leave a Reply", "3 Kommentare", "Comments are closed"), a comment's button
      ("Reply", in a thread's post too), a label of the page (an advertisement's, a
      button to share, print, read on or act, a control, the reading time), the name
      of a box of more stories ("More on This Story"), or where the post is filed
      ("Tags: …"), or that is one link back ("Zurück zur Übersicht"), in the
      languages of the dev data, is noise: the site's, not the story's;
    - ``empty_headings``: a kept heading after the text's first kept paragraph of more
      than TEXT_PARAGRAPH_CHARS characters, with nothing kept between it and the next
      heading or the end, is noise when lines (all dropped) lie under it, or when it
      comes after the text's last such paragraph: it heads a box whose lines are
      dropped;
    - ``empty_labels``: a kept line of at most LABEL_CHARS characters that ends with a
      colon, whose next line is dropped (or that ends the page), is noise: it labels
      a list of tags, a date or a form field that is not text;
    - ``repeats``: a kept line that copies a kept line before it, in a passage shown
      again in a box of another kind (Unit.copy, line_features.repeats), is noise:
      the page's layout shows the text twice (a shop's description in its tabs, a copy
      for another screen size).
    Table cells (not samples) are left as they are.
    """
    return apply_passes(units, kept, beta, passes, link_run)[0]


def apply_passes(
    units: Sequence[Unit], kept: Sequence[str | None], beta: int, passes: Sequence[str], link_run: int = MIN_LINK_RUN
) -> tuple[list[str | None], list[str | None]]:
    """:func:`smooth`'s decisions, and the outcome of the pass that dropped each unit
    (None where none did)."""
    unknown = set(passes) - set(SMOOTHING_PASSES)
    if unknown:
        raise ValueError(f"unknown smoothing passes {sorted(unknown)}: choose among {SMOOTHING_PASSES}")
    kept = list(kept)
    dropped_by: list[str | None] = [None] * len(units)

    def drop(which: Sequence[bool], outcome: str) -> None:
        if not any(which):  # most passes drop nothing on most pages
            return
        for i, dropped in enumerate(which):
            if dropped:
                kept[i], dropped_by[i] = None, outcome

    if "link_runs" in passes:
        drop(link_runs(units, link_run, beta), LINK_RUN)
    # Only lines still kept need the test: most lines of a page are noise by now.
    if "credits" in passes:
        drop([bool(text) and is_credit(unit) for unit, text in zip(units, kept)], CREDIT)
    if "see_also" in passes:
        drop([bool(text) and is_see_also(unit) for unit, text in zip(units, kept)], SEE_ALSO)
    if "notices" in passes:
        drop([bool(text) and is_notice(unit) for unit, text in zip(units, kept)], NOTICE)
    if "related_boxes" in passes:
        drop(related_boxes(units, kept), RELATED_BOX)
    if "empty_headings" in passes:
        drop(empty_headings(units, kept), EMPTY_HEADING)
    if "empty_labels" in passes:
        drop(empty_labels(units, kept), EMPTY_LABEL)
    if "repeats" in passes:
        drop(copies(units, kept), REPEAT)
    return kept, dropped_by


def link_runs(
    units: Sequence[Unit], link_run: int = MIN_LINK_RUN, beta: int | None = None, title: str = ""
) -> list[bool]:
    """Which units lie in a run of at least ``link_run`` all-link lines (smooth's link_runs).

    A line of LONG_LINE characters or more is a paragraph even when all of it is a
    link (a figure's text wrapped in its link): it is never part of a run, and goes to
    the classifier.

    With ``beta``, also the line of at most β characters just before and just after
    each run: the heading of a list of links ("Related", "相关新闻", "Kategorien") and
    a "More" or a label after it; but not a line that the page's ``title`` holds,
    which is the headline after a menu.
    """
    n = len(units)
    dropped = [False] * n
    runs = []
    start = 0
    while start < n:
        end = start
        while end < n and _in_run(units[end]):
            end += 1
        if end - start >= link_run:
            dropped[start:end] = [True] * (end - start)
            runs.append((start, end))
        start = max(end, start + 1)
    if beta is not None:
        for start, end in runs:
            for i in (start - 1, end):
                if 0 <= i < n and units[i].is_sample and units[i].length <= beta:
                    dropped[i] = units[i].text not in title
    return dropped


# A see-also line: a line that opens with a "read also" label and its delimiter, the
# headline of another story after it (Lesen Sie auch: …, VEA TAMBIÉN: …, 延伸阅读：…).
SEE_ALSO_CHARS = 200
_SEE_ALSO_RE = re.compile(
    r"^\W*(?:(?:lea|vea|lee|mira) (?:más|también|además)|lue (?:myös|lisää)|read (?:more|also|next)"
    r"|(?:zobacz|czytaj) (?:także|też|również)|(?:auch )?lesen sie (?:auch|mehr|hier)|auch lesen"
    r"|mehr (?:zum thema|dazu|lesen)|auch interessant|siehe auch|see also|related(?: articles?| stories| posts?)?"
    r"|(?:leia|veja) (?:mais|também)|(?:à )?lire aussi|voir aussi|leggi anche|lees ook|läs (?:också|mer)"
    r"|les også|læs også|相关阅读|延伸阅读|推荐阅读|相关新闻|相关报道|相关链接)\s*[:：»>|-]",
    re.IGNORECASE,
)


# A notice: the site speaking to its reader, not the story: a call to subscribe, sign up
# or follow, the comments' policy, the rights reserved, or the request to turn JavaScript
# on, which is all that a page built by its scripts shows without them. Verbs in the
# forms that call (subscribe, abonnieren), never "subscribers" or "subscription", which
# news prose uses. To sign up and to subscribe only as calls: opening the line or a
# sentence, after "to", "please", "now" and the like, or followed by what a call says
# ("sign up for free", "subscribe to our …"); prose tells how "you can sign up to the
# academy" or how a hook "subscribes us to a friend's status". A newsletter only where
# the line calls to it (to join, get or subscribe to it, "our newsletter", one that
# lands in the inbox) or names its box (a short line that ends with the word, "PC Gamer
# Newsletter"): a newsletter's own pages and the stories about newsletters speak of
# them in every paragraph.
NOTICE_CHARS = 200
_NOTICE_RE = re.compile(
    r"\b(?:follow us|comments are moderated|all rights reserved"
    r"|abonnieren|abonniere|newsletter-anmeldung|folgen sie uns|folge uns"
    r"|suscr[íi]bete|suscr[íi]base|suscribirse|abonnez-vous|s'abonner|inscrivez-vous"
    r"|(?:enable|turn on|activate) (?:your )?javascript|javascript (?:is )?(?:disabled|required|must be enabled)"
    r"|(?:requires?|need to enable) javascript|javascript (?:aktivieren|einschalten)|aktivieren sie javascript"
    r"|activ(?:ez|er) (?:le )?javascript|habilit(?:a|e|ar) (?:el )?javascript)\b"
    r"|\b(?:our|unseren?|notre|nuestr[ao]|free|daily|weekly)\b[^.!?]{0,40}\bnewsletters?\b"
    r"|\bnewsletters?\b[^.!?]{0,40}\b(?:anmelden|abonnieren|sign up|subscribe|inbox|posteingang)\b"
    r"|\b(?:join|get|receive|sign(?:ing)? up (?:to|for)|subscrib\w* to)\b[^.!?]{0,40}\bnewsletters?\b"
    r"|^.{0,20}\bnewsletter\W*$"
    r"|(?:^|[.!?:|•·—–]\s*|\b(?:to|and|or|please|now|free)\s+)sign[ -]?up\b"
    r"|\bsign[ -]?up (?:now|today|here|free|for (?:free|our|a free|the))\b"
    r"|(?:^|[.!?:|•·—–]\s*|\b(?:please|now|and|or)\s+)subscribe\b"
    r"|\bsubscribe (?:now|today|here|free|to (?:our|the|my|this))\b",
    re.IGNORECASE,
)
# The furniture of a comment section, each a whole line: a call to comment ("Leave a
# Reply", "Schreibe einen Kommentar"), the comments' count over them ("11 Antworten zu
# „…“", "27 commentaires", "Comments (18)" on their tab), their state ("Comments are
# closed"), a comment's header line ("Comment by …", "Pingback: …"), a comment's buttons ("Reply", "Quote"; a
# quotation's label, "Quote:", opens the story's text) and the comment form's notice
# ("This site uses Akismet to reduce spam. …"), in the languages of the dev data. A count
# names comments, replies or responses, or thoughts on a quoted title (WordPress's
# "3 thoughts on “…”"): "3 thoughts on the budget" may head a column.
_COUNT = r"(?:\d+|no|one|keine|ein|eine|aucun|un|sin|brak)"
_QUOTE = "[\"'“”„‘‚«]"
# A call to write a comment, a whole line's alternatives: furniture (_COMMENT_CALL_RE)
# and a comment section's heading (_COMMENTS_HEADING_RE) alike.
_CALLS_TO_COMMENT = (
    r"(?:leave|post|write|add|submit) (?:a|your|new) (?:reply|comment|response)(?: to .*)?"
    r"|(?:join|start) the (?:discussion|conversation)"
    r"|schreib(?:e|en sie)? einen kommentar|hinterlasse einen kommentar|(?:laisser|ajouter) un commentaire"
    r"|deja(?:r)? (?:un|tu) comentario|发表评论|我要评论"
)
_COMMENT_CALL_RE = re.compile(
    rf"\W*(?:{_CALLS_TO_COMMENT}"
    r"|comments? (?:are )?(?:closed|disabled)(?: for .*)?"
    r"|be the first to (?:comment|review).*|(?:show|view|load|read|see|hide) (?:all )?(?:\d+ )?(?:comments|replies)"
    r"|you must be logged in to (?:post a )?comment.*|log ?in to (?:comment|reply).*|(?:comment by|pingback|trackback)\b.*"
    rf"|{_COUNT} (?:comments?|responses?|replies)(?: yet)?(?: (?:to|on) .*)?|{_COUNT} thoughts? on {_QUOTE}.*"
    r"|(?:comments?|kommentare?|commentaires?|comentarios|komentarze|评论)\s*[(\[]\d+[)\]]"
    r"|(?:rss )?feed for (?:the )?comments(?: on this (?:post|entry|article))?|comments? (?:rss|feed)(?: feed)?"
    r"|(?:blog )?comments powered by disqus|listed below are links to (?:weblogs|blogs|sites) that reference .*"
    r"|antwort hinterlassen|(?:jetzt )?kommentieren"
    r"|kommentare? (?:schreiben|hinzufügen|verfassen|abgeben|anzeigen|einblenden|geschlossen|lesen)"
    rf"|{_COUNT} (?:kommentare?|antworten)(?: (?:zu|auf) .*)?|{_COUNT} gedanken zu {_QUOTE}.*"
    r"|(?:du musst|sie müssen) (?:angemeldet|eingeloggt) sein,? um (?:einen )?kommentar.*"
    r"|sie müssen sich einloggen,? um .*(?:kommentar|diskussion).*"
    rf"|{_COUNT} commentaires?(?: (?:sur|pour) .*)?|commentaires (?:fermés|clos)"
    rf"|{_COUNT} comentarios?|comentarios cerrados"
    rf"|dodaj komentarz|{_COUNT} komentarz(?:e|y)?|查看评论|暂无评论|\d+ ?条评论"
    r"|reply(?: to this comment)?|antworten|répondre|responder|odpowiedz|回复|(?:quote|zitieren|citer|citar|cytuj)(?!\s*:)"
    r"|(?:this site|diese website|ce site|este sitio) (?:uses|verwendet|utilise|usa) akismet.*)\W*",
)
# The page's labels, each a whole line: an advertisement's ("Anzeige", "Reklama"), a
# button to share or print ("Share this article", "Drucken", "分享到", "一键转发"), the
# text's size ("A+ A-", "T + -"), to read on ("Read more",
# "Weiterlesen") or to act ("Learn more", "Register now", "Jetzt anmelden"), the
# reading time ("4 min read", "Lesezeit: 2 Minuten"), a control of the page ("Search", "Close", "Skip to
# content", "Back to top", "Table of contents", "« Previous Post | Next post »"), the
# name of a box of more stories ("More on This Story", "Neueste Beiträge") and a call
# to rate the page ("War der Artikel nützlich?", "Rate this recipe").
_PAGE_LABEL_RE = re.compile(
    r"\W*(?:advertisement|advertising|anzeige|werbung|reklama|publicidad|publicité|sponsored|gesponsert|广告"
    r"|(?:share|teilen|print|drucken|tweet|pin it|pinnen|imprimir|compartir|partager|imprimer)"
    r"(?: (?:this|the|diesen|den|dieses|die) (?:article|story|post|page|recipe|artikel|beitrag|seite|rezept|geschichte))?"
    r"|分享(?:到|至)?|一键转发|分享让更多人看到|登录 ?后参与讨论|[at]\W*[+＋]\W*(?:[at]\W*)?[-－]"
    r"|read more|continue reading|weiterlesen|mehr lesen|lire la suite|leer más|seguir leyendo|czytaj dalej"
    r"|阅读全文|查看全文|阅读更多|展开全文|展开阅读全文|(?:learn|find out|discover) more|mehr erfahren|en savoir plus|más información"
    r"|dowiedz się więcej|get started|(?:apply|join|shop|buy|order|book|register|donate|sign up|download|subscribe) now"
    r"|jetzt (?:kaufen|bestellen|anmelden|registrieren|spenden)"
    r"|\d+ (?:min|mins|minutes?|minuten?|minut) (?:read|lesezeit|czytania|de lecture|de lectura)"
    r"|search(?: (?:this|the) (?:blog|site))?"
    r"|suche|close|schließen|fermer|cerrar|menu|filters?|sort by|skip to (?:\w+ ?){1,3}|toggle navigation"
    r"|(?:back to|scroll to) top|top|nach oben|zum seitenanfang|retour en haut|volver arriba"
    r"|table of contents|inhaltsverzeichnis|sommaire|spis treści|目录|on this page|in this article"
    r"|more (?:from|on|about|in) .{1,40}|mehr (?:zu[mr]?|aus|von) .{1,40}|(?:neueste|aktuelle) (?:artikel|beiträge|meldungen)"
    r"|(?:was|is|war|ist) (?:this|dieser|der|diese|die) (?:article|page|post|artikel|beitrag|seite) (?:helpful|useful|hilfreich|nützlich)"
    r"|rate this (?:article|post|recipe|page)|(?:noch )?keine bewertungen|no ratings yet|(?:artikel|beitrag) bewerten"
    r"|(?:(?:previous|next|older|newer) (?:post|article|entry|story)s?|(?:vorheriger|nächster) (?:beitrag|artikel)"
    r"|article (?:précédent|suivant))(?:\W+(?:next|older|newer) (?:post|article|entry|story)s?)?"
    r"|(?:lesezeit|reading time)\W*\d+ (?:min|minuten?|minutes?))\W*",
)
# Where the post is filed, its label first ("Tags: python, docker", "Posted in:",
# "Schlagwörter: …"); not the singular "Category:", which heads a prize's or a
# product's line.
_FILED_RE = re.compile(
    r"(?:tags|tagged(?: with)?|schlagwörter|schlagworte|stichwörter|stichworte|themen|kategorien|categories"
    r"|filed under|posted in|abgelegt unter|veröffentlicht in|étiquettes|mots-clés|etiquetas|tagi|标签)"
    r"\s*[:：](?:\s.*)?",
)
# A link back to where the reader came from ("Zurück zur Übersicht", "Back to
# Project"), a line that is one link: prose opens so too ("Back to the street.").
_BACK_LINK_RE = re.compile(
    r"\W*(?:zurück|back|retour|volver|powrót|wróć) (?:zu[rm]?|to|à la|au|a la|al|do) .{0,60}", re.IGNORECASE
)
# A link to the post before or after, under its label ("Previous Post The Flawed Case
# for …", "« Older entry: …"): the label alone is a page label (_PAGE_LABEL_RE); with
# the title, the line is mostly link text (ADJACENT_LINK_RATIO), which prose that says
# "the next post" is not.
_ADJACENT_POST_RE = re.compile(r"\W*(?:previous|next|older|newer) (?:post|article|entry|story)\W+\w.*")
ADJACENT_LINK_RATIO = 0.5
# The whole lines that are notices whatever their links, in one pattern: one match, not three.
_WHOLE_LINE_NOTICE_RE = re.compile("|".join(f"(?:{p.pattern})" for p in (_COMMENT_CALL_RE, _PAGE_LABEL_RE, _FILED_RE)))
# What every match of _NOTICE_RE holds once the text is case-folded (str.casefold): the
# pattern is tried at every position of a line, the cues are looked for in one scan of an
# automaton, and most lines hold none of them. None has an "i", which re.IGNORECASE also matches as the
# Turkish İ and ı, whose case folds are not "i".
_NOTICE_CUES = (
    "subscr", "gn up", "gn-up", "gnup", "newsletter", "follow us", "comments are moderated", "reserved",
    "abonn", "folge", "suscr", "vez-vous", "javascr",
)  # fmt: skip
# The cues in one Aho-Corasick automaton: half the time of a pattern of them.
_notice_cues_in = AhoCorasick(list(_NOTICE_CUES)).find_matches_as_indexes
# A Chinese site's legal notice under a story: a line that opens with its label (声明 and
# up to two characters before it: 免责声明, 特别声明, 平台声明, 新浪声明 …; 反侵权公告,
# 风险提示; then a colon or a bracket; not 公告 alone, which heads a story), which a portal
# puts under every article ("特别声明：以上内容……本平台仅提供信息存储服务。"), that asks
# to be told of an infringement ("如有侵权，请联系删除") or to be named when copied
# ("转载请注明出处"). The rights of a story told in its text ("未经授权，不得转载") stay:
# some golds keep them.
# Matched at the line's start; the phrases are looked for in C first.
_LEGAL_LABEL_RE = re.compile(rf"\W{{0,2}}(?:[{CJK_IDEOGRAPHS}]{{0,2}}声明|反侵权公告|风险提示)\s*[:：】\]]")
_INFRINGEMENT_RE = re.compile(r"如有侵权.{0,6}(?:联系|删除)")


# The text's tail (tail_lines): after the last kept paragraph of more than
# TEXT_PARAGRAPH_CHARS characters, a kept line mostly outside CJK ideographs (at most
# TAIL_CJK_SHARE of its characters) stays only with a decision of TAIL_DECISION or more,
# and not at all when it is all link.
TAIL_DECISION = 1.0
TAIL_CJK_SHARE = 0.3


def tail_lines(
    units: Sequence[Unit],
    kept: Sequence[str | None],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    feature_set: str,
    timer: StageTimer | None = None,
    known: dict[int, float] | None = None,
) -> list[bool]:
    """Which kept lines of the text's tail the classifier is not sure enough of.

    After an article's last paragraph come its site's lines: a bio, a call to comment,
    a teaser, a label; the classifier keeps many of them at decisions between 0 and 1
    (method svm). A line there that is all link leads away from the text (another
    story's headline, a shop, a "more" page) and goes whatever its decision. Lines in
    CJK ideographs are left alone: there the tail's short lines are more often the
    text's (a forum's short replies, a closing line), and the Chinese dev files lost
    with them. Lines of a thread's posts are the thread's. The decision is the whole
    line's, as the classifier gives it, or as ``known`` holds it (by index: the
    decisions already made for the page).
    """
    unsure = [False] * len(units)
    last = last_paragraph(units, kept)
    if last is None:
        return unsure
    tail = [i for i in range(last + 1, len(units)) if kept[i] and units[i].post == 0 and is_spaced(units[i].text)]
    return _below(units, tail, TAIL_DECISION, lexicon, svm, feature_set, timer, known)


# The lines before the located block (Unit.region < 0; margin_lines): a kept one mostly
# outside CJK ideographs stays only with a decision of MARGIN_DECISION or more, and not
# at all when it is all link.
MARGIN_DECISION = 0.25


def margin_lines(
    units: Sequence[Unit],
    kept: Sequence[str | None],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    feature_set: str,
    timer: StageTimer | None = None,
    known: dict[int, float] | None = None,
) -> list[bool]:
    """Which kept lines before the located block the classifier is not sure enough of.

    Method svm classifies every line before the block, where a headline, a byline and
    a lead paragraph often sit; so do the site's menus, a teaser's headline, a
    breadcrumb, a date. The classifier keeps the site's lines there at decisions just
    above 0 more often than the story's (docs/experiments/quality-history.md, "Lines
    before the block"). A line all link goes whatever its decision, as in the tail: it
    leads away from the text (a menu, another story, the author's page, a category).
    Lines in CJK ideographs are left alone, as in the tail: a
    question's short Chinese text sits above its answers. The decision is the whole
    line's, as the classifier gives it, or as ``known`` holds it (by index).
    """
    margin = [i for i, unit in enumerate(units) if kept[i] and unit.region < 0 and is_spaced(unit.text)]
    return _below(units, margin, MARGIN_DECISION, lexicon, svm, feature_set, timer, known)


def _below(
    units: Sequence[Unit],
    indices: Sequence[int],
    threshold: float,
    lexicon: NoiseLexicon,
    svm: SVMParams,
    feature_set: str,
    timer: StageTimer | None,
    known: dict[int, float] | None,
) -> list[bool]:
    """Which units are among ``indices`` and are all link (Unit.kind "link"), or have a
    decision value under ``threshold`` (the classifier is asked about the others only)."""
    below = [False] * len(units)
    asked = []
    for i in indices:
        if units[i].kind == "link":
            below[i] = True
        else:
            asked.append(i)
    for i, value in zip(asked, whole_values(units, asked, lexicon, svm, feature_set, timer, known)):
        below[i] = value < threshold
    return below


def whole_values(
    units: Sequence[Unit],
    indices: Sequence[int],
    lexicon: NoiseLexicon,
    svm: SVMParams,
    feature_set: str,
    timer: StageTimer | None = None,
    known: dict[int, float] | None = None,
) -> list[float]:
    """The classifier's decision value of each of these units as a whole (its whole
    text, not a sentence), asked in one call for those that ``known`` (by index) does
    not hold yet; the values asked are added to ``known``."""
    known = {} if known is None else known
    asked = [i for i in indices if i not in known]
    if asked:
        with timed(timer, "features"):
            X = feature_matrix([units[i] for i in asked], lexicon, feature_set)
        with timed(timer, "classify"):
            values = svm.decision_function(X)
        known.update(zip(asked, map(float, values)))
    return [known[i] for i in indices]


def last_paragraph(units: Sequence[Unit], kept: Sequence[str | None]) -> int | None:
    """The index of the last kept text of more than TEXT_PARAGRAPH_CHARS characters
    whose line is not all link: a long headline of another story is no paragraph."""
    return max(
        (i for i, text in enumerate(kept) if text and units[i].kind != "link" and text_length(text) > TEXT_PARAGRAPH_CHARS),
        default=None,
    )


def is_spaced(text: str) -> bool:
    """Whether a text is written mostly outside CJK ideographs (tail_lines, margin_lines)."""
    return len(cjk_chars(text)) <= TAIL_CJK_SHARE * len(text)


def related_boxes(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which units are kept lines of a box of other stories (smooth's ``related_boxes``):
    a line that names the box ("Related", "You may also like", "相关推荐") and the
    lines of the box (segment.related_boxes), after the text's first long paragraph
    (before it, a "Related" box is the page's, and what follows may be the story).
    """
    dropped = [False] * len(units)
    # Most pages name no box: one look down the column of marks spares the rest.
    if RELATED_NAME not in [unit.related for unit in units]:
        return dropped
    paragraphs = _paragraphs(units, kept)
    if not paragraphs:
        return dropped
    in_box = False
    for i in range(paragraphs[0] + 1, len(units)):
        unit = units[i]
        if unit.related == RELATED_NAME:
            in_box = True
        elif unit.related != IN_RELATED:
            in_box = False
        dropped[i] = in_box and bool(kept[i]) and unit.post == 0
    return dropped


def _paragraphs(units: Sequence[Unit], kept: Sequence[str | None]) -> list[int]:
    """The indices of the kept paragraphs of more than TEXT_PARAGRAPH_CHARS characters."""
    return [
        i
        for i, (unit, text) in enumerate(zip(units, kept))
        if text and unit.kind in ("p", "text", "list") and unit.length > TEXT_PARAGRAPH_CHARS
    ]


def empty_headings(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which units are kept headings that head nothing kept (smooth's ``empty_headings``):
    the heading of a box of related stories, of the comments or of a newsletter form,
    whose lines are dropped.

    Only after the text's first long paragraph (the headline and its deck come before
    it). There a heading heads nothing when no line is kept between it and the next
    heading or the end; it is dropped when lines lie under it, or, after the text's
    last long paragraph, also when none do (a heading over another heading there
    heads the page's tail).
    """
    paragraphs = _paragraphs(units, kept)
    empty = [False] * len(units)
    if not paragraphs:
        return empty
    first, last = paragraphs[0], paragraphs[-1]
    heads_nothing = True  # nothing kept between this unit and the next heading or the end
    under = 0  # lines between this unit and the next heading or the end
    for i in range(len(units) - 1, first, -1):
        if units[i].kind == "heading":
            empty[i] = bool(kept[i]) and heads_nothing and (under > 0 or i > last)
            heads_nothing, under = True, 0
        else:
            under += 1
            if kept[i]:
                heads_nothing = False
    return empty


def copies(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which units are kept copies of a kept line before them (smooth's ``repeats``)."""
    return [bool(text) and unit.copy > 0 and bool(kept[i - unit.copy]) for i, (unit, text) in enumerate(zip(units, kept))]


def empty_labels(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which units are kept labels whose next line is dropped (smooth's ``empty_labels``)."""
    empty = [False] * len(units)
    following_kept = False  # whether the next sample after this unit is kept
    for i in range(len(units) - 1, -1, -1):
        unit = units[i]
        if not unit.is_sample:
            continue
        empty[i] = bool(kept[i]) and not following_kept and unit.post == 0 and is_label(unit)
        following_kept = bool(kept[i])
    return empty


def is_label(unit: Unit) -> bool:
    """Whether the unit is a label: a short line that ends with a colon (empty_labels)."""
    return unit.is_sample and unit.text.rstrip().endswith((":", "：")) and unit.length <= LABEL_CHARS


def is_see_also(unit: Unit) -> bool:
    """Whether the unit is a see-also line (smooth's ``see_also``)."""
    return unit.is_sample and unit.length <= SEE_ALSO_CHARS and _SEE_ALSO_RE.search(unit.text) is not None


def is_notice(unit: Unit) -> bool:
    """Whether the unit is the site's notice to its reader (smooth's ``notices``)."""
    if not unit.is_sample or unit.length > NOTICE_CHARS:
        return False
    text = unit.text
    if _notice_cues_in(text.casefold()) and _NOTICE_RE.search(text) is not None:
        return True
    if _LEGAL_LABEL_RE.match(text) is not None or "转载请注明" in text:
        return True
    if "侵权" in text and _INFRINGEMENT_RE.search(text) is not None:
        return True
    if unit.kind == "link" and _BACK_LINK_RE.fullmatch(text) is not None:
        return True
    # The whole-line patterns are written in lower case and matched against the
    # lower-cased text: twice as fast as re.IGNORECASE, which folds each character.
    lowered = text.lower()
    return _WHOLE_LINE_NOTICE_RE.fullmatch(lowered) is not None or (
        unit.link_ratio >= ADJACENT_LINK_RATIO and _ADJACENT_POST_RE.fullmatch(lowered) is not None
    )


def is_credit(unit: Unit) -> bool:
    """Whether the unit is a credit line or a picture's credit (smooth's ``credits``)."""
    text = unit.text
    # Every label but © ends with a colon: most lines are passed over on three tests in C.
    if not unit.is_sample or ("©" not in text and ":" not in text and "：" not in text):
        return False
    if unit.length <= CREDIT_CHARS and _CREDIT_RE.search(text) is not None:
        return True
    if unit.length > PICTURE_CREDIT_CHARS:
        return False
    folded = text.casefold()
    return any(cue in folded for cue in _PICTURE_CREDIT_CUES) and _PICTURE_CREDIT_RE.search(text) is not None


def _in_run(unit: Unit) -> bool:
    return unit.is_sample and unit.kind == "link" and unit.length < LONG_LINE


# A page of items (items): the block holds at least ITEM_LINES lines, under
# ITEM_PROSE_SHARE of its text in lines of prose, and the decisions keep under
# ITEM_KEPT_SHARE of it (docs/quality.md, "What the method adds to the paper"); under
# ITEM_LIST_KEPT_SHARE on a page that does not say it is one story (metadata.is_story),
# under ITEM_BARE_KEPT_SHARE there when the block holds no line of prose at all.
ITEM_LINES = 10
ITEM_PROSE_SHARE = 0.2
ITEM_KEPT_SHARE = 0.05
ITEM_LIST_KEPT_SHARE = 0.15
ITEM_BARE_KEPT_SHARE = 0.3


# A teaser's headline (teaser_heads): an all-link line of at least TEASER_HEAD_CHARS
# characters that the classifier dropped, with a kept line of at least
# TEASER_SUMMARY_CHARS characters and a prose's link ratio (its summary) within
# TEASER_REACH lines after it; TEASER_PAIRS such pairs or more on a page that is no story.
TEASER_HEAD_CHARS = 25
TEASER_SUMMARY_CHARS = 80
TEASER_REACH = 2
TEASER_PAIRS = 3


def teaser_heads(
    units: Sequence[Unit], kept: Sequence[str | None], dropped_by: Sequence[str | None], story: Callable[[], bool]
) -> list[bool]:
    """Which dropped headlines to keep because their summaries are kept (the ``items`` pass).

    A listing, a collection or a feed of stories gives each item as a linked headline
    over a line of summary: the classifier keeps the summary and drops the headline, a
    link. Where TEASER_PAIRS such pairs lie on a page that does not say it is one story
    (after a story they are the feed of other stories), the headlines are kept too. A
    line that a pass dropped (a run of links, a notice) stays dropped: only the
    classifier's own decisions (``dropped_by`` None) are revisited.
    """
    heads = [False] * len(units)
    found = [
        i
        for i, unit in enumerate(units)
        if kept[i] is None
        and dropped_by[i] is None
        and unit.is_sample
        and unit.kind == "link"
        and unit.post == 0
        and unit.length >= TEASER_HEAD_CHARS
        and any(
            kept[j] and units[j].length >= TEASER_SUMMARY_CHARS and units[j].link_ratio < PROSE_LINK_RATIO
            for j in range(i + 1, min(i + 1 + TEASER_REACH, len(units)))
        )
    ]
    if len(found) >= TEASER_PAIRS and not story():
        for i in found:
            heads[i] = True
    return heads


def items(units: Sequence[Unit], kept: Sequence[str | None], story: Callable[[], bool] = lambda: True) -> list[bool]:
    """Which lines to keep because the page is a page of items (the ``items`` pass).

    A listing, a collection or a table of contents has the items as its content: a
    title link, a date, a line of summary, each of which the classifier takes for
    navigation. When the located block holds little prose (line_features.is_prose)
    and the decisions keep almost none of its text, the block is such a list: every
    line of it is kept (a thread's post panels aside). An article's block, which the
    decisions keep, or whose prose the block holds, is left as it was. "Almost none"
    is ITEM_KEPT_SHARE where ``story()`` says the page is one story (asked only when
    it matters), ITEM_LIST_KEPT_SHARE elsewhere: a shop's category page keeps its
    intro and a few products' lines, a story its short text beside a list of links.
    A block without a single line of prose is a list whatever a few of its lines look
    like (a board of job titles, a wiki's lists of links): up to ITEM_BARE_KEPT_SHARE.
    A line of the page's furniture is never counted as kept: the pass ``furniture``
    drops it whatever kept it.
    """
    # The block's lines, each with its length.
    block = {i: unit.length for i, unit in enumerate(units) if unit.region == 0 and unit.is_sample and unit.post >= 0}
    if len(block) < ITEM_LINES:
        return [False] * len(units)
    total = sum(block.values())
    prose = sum(length for i, length in block.items() if is_prose(length, units[i].link_ratio))
    taken = sum(length for i, length in block.items() if kept[i] and not units[i].furniture)
    bar = ITEM_LIST_KEPT_SHARE if prose else ITEM_BARE_KEPT_SHARE
    if not total or prose >= ITEM_PROSE_SHARE * total or taken >= bar * total:
        return [False] * len(units)
    if taken >= ITEM_KEPT_SHARE * total and story():
        return [False] * len(units)
    return [i in block and not kept[i] for i in range(len(units))]


# A line of code is this share of link text at most: a <pre> of links is a menu.
CODE_LINK_RATIO = 0.5


def code_lines(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which lines to keep because they are code inside the text (the ``code`` pass).

    A manual's or a post's code sample, a console's session, a configuration file:
    the lines of a ``<pre>`` (Unit.code) read to the classifier as nothing it knows,
    short, without sentences, and it drops them. Inside the located block, between
    the text's first and last paragraphs (Unit.span), such a line belongs to the text
    around it and is kept; a thread's panels and the page's furniture stay out.
    """
    return [
        bool(unit.code) and not kept[i] and unit.region == 0 and unit.span == 0 and unit.post >= 0
        and unit.link_ratio <= CODE_LINK_RATIO
        for i, unit in enumerate(units)
    ]  # fmt: skip


# The kept text outside the boxes named for comments holds this many characters at least
# where the pass comments drops what they hold (comment_boxes): a page whose text all
# sits in such boxes keeps it.
ARTICLE_CHARS = 500


# The boxes of comment_boxes: the readers' comments, and the buyers' reviews of a shop's
# page (segment.REVIEWS_BIT).
COMMENT_BOXES = GROUP_BIT["comment"] | REVIEWS_BIT


def comment_boxes(
    units: Sequence[Unit], kept: Sequence[str | None], comment_form: Callable[[], bool] = lambda: False
) -> list[bool]:
    """Which units are kept lines of the readers' comments under an article (the
    ``comments`` pass): lines inside a box whose class, id or tag names comments or
    replies (Unit.groups: "comment-list", "disqus_thread", "respond") or a shop's
    reviews ("customer-reviews": segment.REVIEWS_BIT), on a page that
    keeps ARTICLE_CHARS characters at least outside such boxes, or keeps some text
    outside them and holds the box to write a comment in (``comment_form``: asked only
    then, metadata.holds_comment_form): a blog's short post, a picture and its
    caption, under a long discussion; and the kept lines after the heading of a
    comment section (comments_heading), whatever their boxes are named. A forum's page
    does not run the pass (extract, metadata.is_forum). A thread located as such
    (Unit.post) whose posts sit in such boxes is a blog's comments under its post when
    the page keeps that much outside them, and its posts go too; a forum whose engine
    names its posts so keeps them, its first post among them.
    """
    heading = comments_heading(units, kept)
    after = [heading is not None and i > heading and bool(text) for i, text in enumerate(kept)]
    inside = [bool(unit.groups & COMMENT_BOXES) for unit in units]
    if not any(inside):
        return after
    outside = sum(len(text) for text, box in zip(kept, inside) if text and not box)
    if outside < ARTICLE_CHARS and not (outside and comment_form()):
        return after
    return [(box and bool(text)) or late for box, text, late in zip(inside, kept, after)]


# The heading of a comment section, a whole line: its name ("Comments", "Reader
# comments", "网友评论"), its count ("12 Comments", "3 thoughts on “…”", "Comments
# (4)") or its call ("Post a Comment", "Leave a Reply", "Join the discussion"), in the
# languages of the dev data; not a comment's buttons ("Reply"), which a thread's posts
# show too.
_COMMENTS_HEADING_RE = re.compile(
    rf"\W*(?:{_CALLS_TO_COMMENT}|be the first to comment.*|(?:(?:readers?|users?)'? )?comments"
    rf"|{_COUNT} (?:comments?|responses?|replies)(?: (?:to|on) .*)?|{_COUNT} thoughts? on {_QUOTE}.*"
    r"|(?:comments?|kommentare?|commentaires?|comentarios)\s*[(\[]\d+[)\]]|kommentare|commentaires|comentarios"
    rf"|{_COUNT} (?:kommentare?|commentaires?|comentarios?)|网友评论|读者评论|\d+ ?条评论)\W*",
)
# A heading is this long at most, and this share of link text at most: a link to the
# comments ("4 Comments" in the byline, "Comments" in a toolbar) jumps to them from
# above the text.
COMMENTS_HEADING_CHARS = 80
COMMENTS_HEADING_LINK_RATIO = 0.5
# A page shows so many such headings at most: more is a list of posts, each with its
# count.
COMMENTS_HEADINGS = 2


def comments_heading(units: Sequence[Unit], kept: Sequence[str | None]) -> int | None:
    """The index of the heading of the comment section under the text
    (_COMMENTS_HEADING_RE, not a link), where ARTICLE_CHARS characters are kept before
    it, a paragraph of prose among them; None where there is none, where the page shows
    more than COMMENTS_HEADINGS such lines, or where code is kept under it (Unit.code: a
    manual's section on comments in code, "Comments", shows some). Comments that the
    thread rules located as a thread's posts are under it too; a forum's page does not
    run the pass.
    """
    headings = [
        i for i, unit in enumerate(units)
        if len(unit.text) <= COMMENTS_HEADING_CHARS and unit.link_ratio < COMMENTS_HEADING_LINK_RATIO
        and _COMMENTS_HEADING_RE.fullmatch(unit.text.casefold())
    ]  # fmt: skip
    if not headings or len(headings) > COMMENTS_HEADINGS:
        return None
    chars, prose = 0, False
    for i, (unit, text) in enumerate(zip(units, kept)):
        if i in headings and chars >= ARTICLE_CHARS and prose:
            return None if any(units[j].code and kept[j] for j in range(i + 1, len(units))) else i
        if text:
            chars += len(text)
            prose = prose or is_prose(unit.length, unit.link_ratio)
    return None


# So many lines in a row not kept, between the last kept line and the first kept one past
# the box of the block's text, make the gap after which past_core drops what follows.
CORE_GAP = 4


def past_core(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which kept lines lie past the box of the block's text (Unit.past_core) and past a
    gap of CORE_GAP lines not kept at least, where a paragraph of prose is kept before
    them (the ``past_core`` pass): the block grew
    over what follows the article, a feed of other stories, a blog's sidebar, its
    readers' comments, and the lines between (a share bar, "Related posts", a reply
    form) are dropped. A section that follows the text's box closely (a list of
    references, the rest of a service's page under a heading) is kept.
    """
    first = next((i for i, (unit, text) in enumerate(zip(units, kept)) if unit.past_core and text), None)
    if first is None:
        return [False] * len(units)
    before = [i for i in range(first) if kept[i]]
    if not before or first - before[-1] - 1 < CORE_GAP or not any(is_prose(units[i].length, units[i].link_ratio) for i in before):
        return [False] * len(units)
    return [unit.past_core and bool(text) for unit, text in zip(units, kept)]


def author_boxes(units: Sequence[Unit], kept: Sequence[str | None]) -> list[bool]:
    """Which kept lines are of a box about the author after the text (the
    ``author_boxes`` pass): inside a box whose class, id or tag names the author
    (Unit.groups: "author-bio", "about-author", ``<address>``), after the last paragraph
    of prose kept outside such boxes, where they hold less text than is kept up to
    that paragraph (a page whose article sits in a box so named keeps it). A byline
    above the text is before that paragraph, and stays.
    """
    author = GROUP_BIT["author"]
    outside = [i for i, (unit, text) in enumerate(zip(units, kept)) if text and not unit.groups & author]
    last = max((i for i in outside if is_prose(units[i].length, units[i].link_ratio)), default=None)
    if last is None:
        return [False] * len(units)
    boxed = [i > last and bool(text) and bool(unit.groups & author) and unit.post == 0 for i, (unit, text) in enumerate(zip(units, kept))]
    if sum(len(text) for text, box in zip(kept, boxed) if text and box) >= sum(len(text) for text in kept[: last + 1] if text):
        return [False] * len(units)
    return boxed


def bare_prose(units: Sequence[Unit]) -> list[bool]:
    """Which lines to keep when the decisions kept nothing of the page (the ``prose``
    pass, the last): the located block's paragraphs of prose (line_features.is_prose),
    outside the page's furniture and a thread's panels; where it holds none, its
    sentences (is_sentence).

    A page whose text the classifier takes for noise line by line (a forum's replies
    nested in lists, each under its author's links, read as comments) would give no
    text at all, and a page with nothing kept is reported empty; its block's long
    paragraphs are text more often than not, and so is the one sentence of a page that
    holds no more. A page whose block holds neither (a shop's page built by its
    scripts, whose lines are labels and prices) stays empty.
    """
    inside = list(map(_in_block, units))
    prose = [within and is_prose(unit.length, unit.link_ratio) for unit, within in zip(units, inside)]
    if any(prose):
        return prose
    return [within and is_sentence(unit) for unit, within in zip(units, inside)]


def _in_block(unit: Unit) -> bool:
    """Whether the unit is a sample of the located block, outside the page's furniture
    and the rest of a thread's records (bare_prose, forum_prose)."""
    return unit.is_sample and unit.region == 0 and unit.post >= 0 and not unit.furniture


def forum_prose(units: Sequence[Unit], kept: Sequence[str | None], by_pass: Sequence[str | None]) -> list[bool]:
    """Which lines to keep whole on a forum's page (the ``forum_prose`` pass, the last):
    the located block's paragraphs of prose (line_features.is_prose) that the classifier
    dropped, or cut, and no pass decided (``by_pass``), outside the page's furniture and
    a thread's records.

    On a forum's page the block is the thread, and its paragraphs of prose are its
    posts. Where its records are not found (a thread whose posts differ from its
    first, or whose text elements are not alike), the classifier judges the posts line
    by line, and reads many as the comments under an article: it drops paragraphs of
    two hundred characters at decisions of -0.2 to -0.95. Where the thread rules did
    find the posts, a line in a box named for comments outside them (the comments under
    a question, beside its answers) is no post. Only a page whose address says it is a
    forum's (metadata.is_forum) runs this pass.
    """
    found = any(unit.post for unit in units)  # the thread rules found the posts
    return [
        text != unit.text
        and by is None
        and _in_block(unit)
        and unit.post == 0  # a post's text is kept already
        and not (found and unit.groups & GROUP_BIT["comment"])
        and is_prose(unit.length, unit.link_ratio)
        for unit, text, by in zip(units, kept, by_pass)
    ]


# A sentence: this many characters at least, at most PROSE_LINK_RATIO of them link text,
# ending as a sentence ends (tokenize.ends_sentence), and no notice of the site's (is_notice).
SENTENCE_CHARS = 40


def is_sentence(unit: Unit) -> bool:
    """Whether the unit is a sentence of text (bare_prose, where no paragraph is)."""
    return (
        unit.length >= SENTENCE_CHARS and unit.link_ratio <= PROSE_LINK_RATIO
        and ends_sentence(unit.text) and not is_notice(unit)
    )  # fmt: skip
