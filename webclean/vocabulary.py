"""The words webclean reads as given, not learned: in one place, as data.

What the noise words and the site's lines are, the model learns from its training pages
(webclean/lexicon.py: the paper's noise lexicon and the line lexicon). What stays here
names a page's structure: the class and id words of its boxes, the names of a box of
other stories, the labels of its metadata, the words of a forum's address. Each is
matched as a whole word, a word part or a whole line, never as a pattern.
"""

from __future__ import annotations

# --- class and id words (segment.py) -------------------------------------------------

# Words of class and id values that name the page's noise, matched as whole words or
# word parts between - and _ (a digit may follow: "comment2"), in any case.
NOISE_ATTR_WORDS = frozenset(
    "nav navbar menu footer foot sidebar side breadcrumb breadcrumbs crumb crumbs comment comments reply "
    "share sharing social related recommend promo sponsor advert ad ads banner copyright subscribe "
    "newsletter cookie consent popup modal toolbar pagination pager tag tags login signup widget hot rank".split()
)
# ... and those that name the article.
CONTENT_ATTR_WORDS = frozenset("article content post entry story main body text detail news artibody endtext".split())
# The kinds of box an ancestor's class/id words (or its tag) name, for the trees of
# method svm: each group's name and its words.
ANCESTOR_GROUPS = (
    ("author", "author byline bio biography profile avatar writer about"),
    ("caption", "caption figcaption credit credits figure photo image img media gallery"),
    ("meta", "meta date time info dateline timestamp published tags category source"),
    ("share", "share sharing social print email tools follow facebook twitter"),
    ("promo", "subscribe newsletter signup promo cta donate membership paywall ad ads advert sponsor banner"),
    ("related", "related recommend recommended more also read teaser trending popular most"),
    ("comment", "comment comments reply respond discussion disqus"),
    ("quote", ""),
    ("form", ""),
    ("header", ""),
)
# A word that opens with one of these names a post's subject (WordPress's
# "category-gallery", "tag-cookies"), not what its box holds.
SUBJECT_PREFIXES = ("category-", "tag-", "tags-", "topic-")
# A consent manager's box: a word that holds a manager's name, or one of CONSENT_PARTS
# joined to another part ("cookie-banner", "gdpr_notice").
CONSENT_BRANDS = ("onetrust", "cookiebot", "didomi", "usercentrics", "cookieconsent", "cookielaw")
CONSENT_PARTS = frozenset({"cookie", "cookies", "consent", "gdpr"})
# A gallery or a slideshow: a word whose last part is one of GALLERY_PARTS, or such a
# part followed by a wrapper's name ("photo-gallery", "slideshow-wrapper").
GALLERY_PARTS = frozenset({"gallery", "slideshow"})
GALLERY_WRAPPERS = frozenset({"wrapper", "wrap", "container", "module", "block", "widget", "box"})


def _expand(phrases: str) -> frozenset[str]:
    """Phrases written one a line, "a|b" standing for the choices of a word."""
    found: set[str] = set()
    for phrase in filter(None, (line.strip() for line in phrases.splitlines())):
        variants = [""]
        for word in phrase.split():
            choices = [choice.replace("_", " ") for choice in word.split("|")]
            variants = [f"{before} {choice}".strip() for before in variants for choice in choices]
        found.update(" ".join(variant.split()) for variant in variants)
    return frozenset(found)


# The name of a box of other stories, a whole line lower-cased ("Related", "You may
# also like", "相关推荐"), or of a blog's sidebar widget ("Recent Posts", "Categories"),
# in the languages of the dev data (segment.related_boxes). "|" separates the choices of
# one word, "_" is a word left out ("related_|articles": "related", "related articles").
RELATED_BOX_NAMES = _expand(
    """
    related _|articles|article|stories|posts|post|content|reading|news|coverage|topics|links|videos
    you may|might _|also like|enjoy
    more stories|articles|news
    more to read
    recommended _|stories|articles|reading|videos
    recommended for you
    read next
    what to read next
    most popular|read|viewed
    popular posts|stories|articles
    trending _|now|stories
    editor's|editors|editors' picks
    top stories
    more like this
    don't miss
    up next
    keep reading
    recent posts|comments
    explore further
    categories
    archives
    tags
    blogroll
    neueste|aktuelle kommentare
    meist gelesen
    meistgelesen
    top-themen
    empfehlungen der|aus_der redaktion
    zum weiterlesen
    kategorien
    archiv
    schlagwörter
    ähnliche|verwandte beiträge|artikel
    das|_ könnte sie|dich auch interessieren
    das|_ könnte ihnen|dir auch gefallen
    auch interessant
    weitere artikel|beiträge|themen
    mehr zum thema
    à découvrir
    catégories
    à|_ lire aussi|également
    articles similaires
    sur le même sujet
    les plus lus
    vous aimerez aussi
    les plus populaires
    dans la même rubrique
    categorías
    etiquetas
    noticias relacionadas
    artículos relacionados
    también|_ te puede interesar
    lo más leído|visto
    más noticias
    polecane
    najczęściej czytane
    podobne artykuły
    czytaj|zobacz także|też
    """
) | frozenset(
    "相关推荐 为你推荐 猜你喜欢 相关阅读 热门推荐 推荐阅读 相关文章 相关新闻 您可能感兴趣的文章 热门文章 精彩推荐 大家都在看 热门资讯"
    " 延伸阅读 相关报道 相关事件 相关话题 相关专题 媒体报道 编辑推荐 今日推荐 相关视频 热点新闻".split()
)

# --- metadata (metadata.py) -----------------------------------------------------------

# The months of an English date, by name and abbreviation.
MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ),  # fmt: skip
        start=1,
    )
    for name in names
}
# A label that names the story's source: a Chinese label ends with one of
# SOURCE_LABELS_ZH (来源：, 新闻来源：), an English one is one of SOURCE_LABELS_EN.
SOURCE_LABELS_ZH = ("来源", "來源", "稿源", "出处")
SOURCE_LABELS_EN = frozenset({"Source", "Sources", "Via"})
# Labels that may follow a source without a space (来源：新华社作者：张三): the source ends there.
SOURCE_TAIL_LABELS = ("作者", "编辑", "责任编辑", "记者", "发布时间", "时间", "日期", "点击", "浏览")
# The Open Graph types of a page of one story.
STORY_TYPES = frozenset({"article", "blog", "news"})
# Class and id words of the readers' comments (a page of one story holds them) ...
COMMENT_NAMES = frozenset({"comment", "comments", "respond", "commentform", "disqus_thread"})
# ... and of the box to write one: a word that holds "respond", or one of these.
COMMENT_FORM_NAMES = frozenset({"commentform", "comment-form", "comment_form", "commentsform", "comments-form", "comments_form"})
# The words that name a forum's page when one starts a label of the address's host or a
# segment of its path (metadata.is_forum). Not "topics": a site's index of subjects (a
# manual's /topics/, an encyclopaedia's, a review site's).
FORUM_WORDS = frozenset(
    "forum forums board boards bbs community discuss discussion discussions topic thread threads questions"
    " comments viewtopic showthread t".split()
)
# The page types (page_type.PAGE_TYPES) of the types a page declares of itself: schema.org's
# (JSON-LD ``@type``, microdata ``itemtype``) and Open Graph's (``og:type``), lower case. A
# page_type signal counts them; the model learns what each count says.
DECLARED_TYPES = {
    **dict.fromkeys(
        ("article", "newsarticle", "blogposting", "reportagenewsarticle", "report", "scholarlyarticle", "blog", "news",
         "liveblogposting", "opinionnewsarticle"),
        "article",
    ),
    **dict.fromkeys(("itemlist", "searchresultspage", "offercatalog"), "listing"),
    **dict.fromkeys(("discussionforumposting", "qapage", "question", "answer", "socialmediaposting", "comment"), "forum"),
    **dict.fromkeys(("product", "offer", "aggregateoffer", "productgroup", "aggregaterating", "review", "product.item"), "product"),
    **dict.fromkeys(("techarticle", "apireference", "softwaresourcecode", "howto", "softwareapplication"), "documentation"),
    **dict.fromkeys(
        ("service", "localbusiness", "organization", "professionalservice", "faqpage", "contactpage", "aboutpage", "corporation"),
        "service",
    ),
    **dict.fromkeys(("collectionpage", "imagegallery", "mediagallery"), "collection"),
}  # fmt: skip
