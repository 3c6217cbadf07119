# The parse's clean-up (parse.py) and the hidden elements (segment.drop_hidden), included
# in webclean/_core.pyx: the same module, its cimports and helpers (_code_point,
# _is_element, _is_text, _has_attribute_defaults, _place, _NAME_SLOTS) in scope. Each
# function finds what its Python reference finds, over libxml2's nodes; the edits of
# the tree stay Python's (lxml keeps its proxies and documents right), done on the few
# elements found.

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.string cimport strncmp


# --- tag names ------------------------------------------------------------------------------


cdef class _Tags:
    """Tag names, as lxml's iter(*tags) and XPath's name tests match them: an element of
    one of the names, in no namespace. libxml2 keeps one copy of each tag name of a
    parsed page, so a name's place is looked up by its pointer once, and compared by its
    characters only on a miss (as census does)."""

    cdef list encoded
    cdef Py_ssize_t n
    cdef int filled
    cdef const_xmlChar* names[_NAME_SLOTS]
    cdef Py_ssize_t places[_NAME_SLOTS]

    def __cinit__(self, tuple tags not None):
        self.encoded = [tag.encode("utf-8") for tag in tags]
        self.n = len(self.encoded)
        memset(self.names, 0, sizeof(self.names))

    cdef Py_ssize_t place(self, xmlNode* node):
        """The place of ``node``'s name among the tags, or -1."""
        cdef const_xmlChar* name = node.name
        cdef size_t slot
        cdef Py_ssize_t i
        if node.type != tree.XML_ELEMENT_NODE or node.ns is not NULL:
            return -1
        slot = (<size_t> name >> 4) % _NAME_SLOTS
        while self.names[slot] is not NULL:
            if self.names[slot] == name:
                return self.places[slot]
            slot = (slot + 1) % _NAME_SLOTS
        i = _place(name, self.encoded, self.n)
        if self.filled < _NAME_SLOTS // 2:  # half full at most: a probe always ends
            self.names[slot] = name
            self.places[slot] = i
            self.filled += 1
        return i


cdef inline xmlNode* _next_node(xmlNode* node, xmlNode* top, bint descend, Py_ssize_t* depth) noexcept nogil:
    """The node after ``node`` in document order within ``top``'s tree (its children
    first where ``descend``), or NULL; ``depth`` follows it (the children of a node at
    depth d are at d + 1). No recursion: a tree may be as deep as libxml2 lets it."""
    if descend and node.children is not NULL:
        depth[0] += 1
        return node.children
    while node is not top and node.next is NULL:
        node = node.parent
        depth[0] -= 1
    if node is top:
        return NULL
    return node.next


cdef inline bint _is_element_node(xmlNode* node) noexcept nogil:
    return node.type == tree.XML_ELEMENT_NODE


cdef xmlNode* _xpath_top(xmlNode* node) noexcept:
    """What an XPath from ``node`` reads as its document: lxml evaluates a path from any
    element of a document, nested or removed from its tree, against the whole document
    (its top-level siblings too: libxml2 may leave a second ``<html>`` beside the
    first). Its nodes are walked from :func:`_first_node` on."""
    return node if node.doc is NULL else <xmlNode*> node.doc


cdef inline xmlNode* _first_node(xmlNode* top) noexcept nogil:
    return top.children if top.type == tree.XML_DOCUMENT_NODE or top.type == tree.XML_HTML_DOCUMENT_NODE else top


def holds_named(_Element element not None, tuple tags not None):
    """``any(True for _ in element.iter(*tags))`` (parse._unwrap_swallowing_controls)."""
    cdef _Tags names = _Tags(tags)
    cdef xmlNode* top = element._c_node
    cdef xmlNode* node = top
    cdef Py_ssize_t depth = 0
    while node is not NULL:
        if names.place(node) >= 0:
            return True
        node = _next_node(node, top, _is_element_node(node), &depth)
    return False


def elements_at_level(_Element root not None, Py_ssize_t level):
    """depth.elements_at_level: XPath's "/*" * level from ``root``, the elements
    ``level`` levels down from its document (_xpath_top; level 1: its root element), in
    document order."""
    cdef xmlNode* top = _xpath_top(root._c_node)
    cdef xmlNode* node = _first_node(top)
    cdef Py_ssize_t depth = 1
    cdef list found = []
    while node is not NULL:
        if _is_element_node(node) and depth == level:
            found.append(elementFactory(root._doc, node))
        node = _next_node(node, top, _is_element_node(node) and depth < level, &depth)
    return found


def tree_census(_Element root not None, Py_ssize_t level, tuple tags not None):
    """parse._census in one walk of ``root``'s document: how many elements it holds
    (XPath's ``count(//*)``), those ``level`` levels down (:func:`elements_at_level`),
    and the elements of ``tags`` in ``root``'s tree (``root.iter(*tags)``), each list in
    document order."""
    cdef _Tags names = _Tags(tags)
    cdef xmlNode* top = _xpath_top(root._c_node)
    cdef xmlNode* node = _first_node(top)
    cdef xmlNode* inside = NULL  # root's node while the walk is in its tree
    cdef Py_ssize_t depth = 1, inside_depth = 0, count = 0
    cdef list at_level = [], named = []
    while node is not NULL:
        if _is_element_node(node):
            count += 1
            if depth == level:
                at_level.append(elementFactory(root._doc, node))
            if node is root._c_node:
                inside, inside_depth = node, depth
            if inside is not NULL and names.place(node) >= 0:
                named.append(elementFactory(root._doc, node))
        node = _next_node(node, top, _is_element_node(node), &depth)
        if inside is not NULL and (depth < inside_depth or (depth == inside_depth and node is not inside)):
            inside = NULL
    return count, at_level, named


cdef inline bint _xpath_blank(unsigned char c) noexcept nogil:
    # What XPath's normalize-space strips: space, tab, CR and LF.
    return c == b" " or c == b"\t" or c == b"\r" or c == b"\n"


cdef int _attribute_text(xmlNode* node, const char* name, const unsigned char** value) noexcept:
    """The text of ``node``'s attribute ``name`` in no namespace, as lxml's get(name)
    reads it: 0 where it has none, 1 with ``value`` set ("" for an empty one), -1 where
    the value is not one text node (lxml joins the nodes)."""
    cdef tree.xmlAttr* attribute = node.properties
    cdef xmlNode* text
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*> attribute.name, name) == 0:
            text = attribute.children
            if text is NULL:
                value[0] = <const unsigned char*> b""
                return 1
            if text.next is NULL and _is_text(text) and text.content is not NULL:
                value[0] = <const unsigned char*> text.content
                return 1
            return -1
        attribute = attribute.next
    return 0


cdef inline bint _attribute_defaults(xmlNode* node) noexcept:
    # A DTD's attribute defaults, which lxml's get reads and the node's attributes lack.
    return node.doc is not NULL and (_has_attribute_defaults(node.doc.intSubset) or _has_attribute_defaults(node.doc.extSubset))


cdef int _grow_ints(Py_ssize_t** items, Py_ssize_t* capacity, Py_ssize_t size) except -1:
    cdef Py_ssize_t* grown
    if size < capacity[0]:
        return 0
    capacity[0] = max(64, 2 * capacity[0])
    grown = <Py_ssize_t*> realloc(items[0], capacity[0] * sizeof(Py_ssize_t))
    if grown is NULL:
        raise MemoryError()
    items[0] = grown
    return 0


def nowhere_links(_Element root not None, bytes scheme not None, tuple boxes not None):
    """parse._NOWHERE_LINKS(root): the ``<a>`` elements of ``root``'s document
    (_xpath_top) whose href, XPath's blanks stripped from its start, starts with
    ``scheme`` (which holds no blank, so normalize-space's folding inside does not
    change the test), and that hold an element of ``boxes``; in document order. None where an href is more than
    one text node, or a DTD may give one.

    One walk: the links met are kept in order with whether they hold a box; those still
    open are a stack, and a box marks all of them (each link once: those below
    ``marked`` are marked already)."""
    cdef _Tags names = _Tags(boxes)
    cdef _Tags link = _Tags(("a",))
    cdef xmlNode* top = _xpath_top(root._c_node)
    cdef xmlNode* node = _first_node(top)
    cdef Py_ssize_t* opened = NULL  # places in ``found`` of the links still open, innermost last
    cdef Py_ssize_t* depths = NULL  # and their depths
    cdef Py_ssize_t open_count = 0, open_capacity = 0, depth_capacity = 0, marked = 0, depth = 0, i
    cdef Py_ssize_t n = len(scheme)
    cdef const unsigned char* href = NULL
    cdef int has
    cdef list found = [], holds = []
    if _attribute_defaults(root._c_node):
        return None
    try:
        while node is not NULL:
            if _is_element_node(node):
                while open_count and depths[open_count - 1] >= depth:  # links whose end came
                    open_count -= 1
                marked = min(marked, open_count)
                if names.place(node) >= 0:
                    for i in range(marked, open_count):
                        holds[opened[i]] = True
                    marked = open_count
                if link.place(node) >= 0:
                    has = _attribute_text(node, "href", &href)
                    if has < 0:
                        return None
                    if has:
                        while _xpath_blank(href[0]):
                            href += 1
                        if strncmp(<const char*> href, PyBytes_AS_STRING(scheme), n) == 0:
                            _grow_ints(&opened, &open_capacity, open_count)
                            _grow_ints(&depths, &depth_capacity, open_count)
                            opened[open_count] = len(found)
                            depths[open_count] = depth
                            open_count += 1
                            found.append(elementFactory(root._doc, node))
                            holds.append(False)
            node = _next_node(node, top, _is_element_node(node), &depth)
    finally:
        free(opened)
        free(depths)
    return [element for element, held in zip(found, holds) if held]


cdef int _bail_node(xmlNode* node) noexcept nogil:
    # What the walks of text leave to Python: an entity reference, an XInclude marker or
    # anything else a parsed HTML page does not hold, whose text lxml and XPath read
    # each in its own way.
    return not (node.type == tree.XML_ELEMENT_NODE or _is_text(node) or node.type == tree.XML_COMMENT_NODE
                or node.type == tree.XML_PI_NODE or node.type == tree.XML_DTD_NODE)


cdef Py_ssize_t _chars(const unsigned char* s) noexcept nogil:
    """The characters of a UTF-8 text (XPath's string-length): its bytes less those that
    continue a character (10xxxxxx), counted eight bytes at a time: a word's high bits of
    those bytes, moved to the low bit of each, summed into the top byte by a multiply."""
    cdef Py_ssize_t n, i = 0, continuing = 0
    cdef unsigned long long word
    if s is NULL:
        return 0
    n = strlen(<const char*> s)
    while i + 8 <= n:
        memcpy(&word, s + i, 8)
        continuing += (((word & ~(word << 1) & 0x8080808080808080ULL) >> 7) * 0x0101010101010101ULL) >> 56
        i += 8
    while i < n:
        continuing += (s[i] & 0xC0) == 0x80
        i += 1
    return n - continuing


cdef Py_ssize_t _solid_chars(const unsigned char* s) noexcept:
    """The characters of a UTF-8 text that are not white space (text.text_length)."""
    cdef Py_ssize_t i = 0, n, count = 0
    cdef Py_UCS4 cp = 0
    if s is NULL:
        return 0
    n = strlen(<const char*> s)
    while i < n:
        i += _code_point(s, i, n, &cp)
        count += not Py_UNICODE_ISSPACE(cp)
    return count


def visible_chars(_Element element not None, Py_ssize_t count):
    """parse._has_visible_chars: whether the text of ``element`` (``itertext()``, its
    tail not included) holds ``count`` characters besides white space; None for a
    count under 1 (where Python asks whether it holds any text at all) or a tree the
    walk leaves to Python."""
    cdef xmlNode* top = element._c_node
    cdef xmlNode* node = top
    cdef Py_ssize_t seen = 0, depth = 0
    if count < 1:
        return None
    while node is not NULL:
        if _bail_node(node):
            return None
        if _is_text(node):
            seen += _solid_chars(<const unsigned char*> node.content)
            if seen >= count:
                return True
        node = _next_node(node, top, _is_element_node(node), &depth)
    return False


# --- segment.drop_hidden ------------------------------------------------------------------


cdef long long _text_chars(xmlNode* top) noexcept:
    """XPath's string-length(.) of ``top``: the characters of its tree's text; -1 where
    the tree holds what the walk leaves to Python."""
    cdef xmlNode* node = top
    cdef Py_ssize_t depth = 0
    cdef long long chars = 0
    while node is not NULL:
        if _bail_node(node):
            return -1
        if _is_text(node):
            chars += _chars(<const unsigned char*> node.content)
        node = _next_node(node, top, _is_element_node(node), &depth)
    return chars


cdef inline unsigned char _lower(unsigned char c) noexcept nogil:
    return c | 0x20 if b"A" <= c <= b"Z" else c


cdef bint _ascii(const unsigned char* s) noexcept nogil:
    while s[0]:
        if s[0] >= 0x80:
            return False
        s += 1
    return True


cdef inline const unsigned char* _skip_space(const unsigned char* s) noexcept:
    # \s of a str pattern, over ASCII: what str.isspace says.
    while s[0] and Py_UNICODE_ISSPACE(s[0]):
        s += 1
    return s


cdef const unsigned char* _word_at(const unsigned char* s, const unsigned char* word) noexcept nogil:
    """Past ``word`` (lower case) where the ASCII text ``s`` starts with it, whatever
    its case (re.IGNORECASE over ASCII); else NULL."""
    while word[0]:
        if _lower(s[0]) != word[0]:
            return NULL
        s += 1
        word += 1
    return s


cdef enum:
    _RULE_NAMES = 8  # the most names of each kind of segment's HiddenRules


cdef class _HiddenTest:
    """segment._is_hidden over a node's attributes, its rules (core.HiddenRules) held
    as C strings."""

    cdef list keep  # the bytes that the pointers below point into
    cdef const char* shown[_RULE_NAMES]
    cdef const char* said[_RULE_NAMES]
    cdef const unsigned char* props[_RULE_NAMES]
    cdef const unsigned char* values[_RULE_NAMES]
    cdef Py_ssize_t n_shown, n_said, n_styles
    cdef bint firsts[256]  # the first bytes of the attributes' names: the others are passed over at once
    cdef const unsigned char* truth
    cdef _Tags never
    cdef object is_hidden

    def __cinit__(self, rules):
        shown, said, styles, truth, never, self.is_hidden = rules
        if max(len(shown), len(said), len(styles)) > _RULE_NAMES:
            raise ValueError(f"at most {_RULE_NAMES} names of each kind")
        self.keep = []
        self.n_shown = self.strings(shown, <const unsigned char**> self.shown, False)
        self.n_said = self.strings(said, <const unsigned char**> self.said, False)
        # matched whatever their case: held in lower case
        self.n_styles = self.strings([prop for prop, _ in styles], self.props, True)
        self.strings([value for _, value in styles], self.values, True)
        self.strings([truth], &self.truth, True)
        self.never = _Tags(tuple(never))
        memset(self.firsts, 0, sizeof(self.firsts))
        for name in (*shown, *said, "style"):
            self.firsts[ord(name[0]) & 0xFF] = True

    cdef Py_ssize_t strings(self, names, const unsigned char** into, bint lower) except -1:
        cdef Py_ssize_t i = 0
        for name in names:
            encoded = (name.lower() if lower else name).encode("ascii")
            self.keep.append(encoded)
            into[i] = <const unsigned char*> PyBytes_AS_STRING(encoded)
            i += 1
        return i

    cdef bint styled(self, const unsigned char* style) noexcept:
        """segment._HIDDEN_STYLE_RE's search over an ASCII style: somewhere a property,
        then white space, ":", white space and its value."""
        cdef const unsigned char* at
        cdef Py_ssize_t i
        while style[0]:
            for i in range(self.n_styles):
                if _lower(style[0]) != self.props[i][0]:
                    continue
                at = _word_at(style, self.props[i])
                if at is NULL:
                    continue
                at = _skip_space(at)
                if at[0] == b":" and _word_at(_skip_space(at + 1), self.values[i]) is not NULL:
                    return True
            style += 1
        return False

    cdef int test(self, xmlNode* node) noexcept:
        """1 hidden, 0 not, -1 where Python decides: a value of more than one text node,
        or not ASCII (str.strip, str.lower and the regular expression read Unicode)."""
        cdef tree.xmlAttr* attribute = node.properties
        cdef const unsigned char* value
        cdef const char* name
        cdef Py_ssize_t i
        cdef int found = 0
        while attribute is not NULL and found <= 0:
            if attribute.ns is NULL and self.firsts[attribute.name[0]]:
                name = <const char*> attribute.name
                value = _value(attribute)
                for i in range(self.n_shown):
                    if strcmp(name, self.shown[i]) == 0:
                        found = 1
                for i in range(self.n_said):
                    if strcmp(name, self.said[i]) == 0:
                        if value is NULL or not _ascii(value):
                            found = -1
                        elif _says(value, self.truth):
                            found = 1
                if strcmp(name, "style") == 0:
                    if value is NULL or not _ascii(value):
                        found = -1
                    elif self.styled(value):
                        found = 1
            attribute = attribute.next
        if found and self.never.place(node) >= 0:
            return 0
        return found


cdef inline const unsigned char* _value(tree.xmlAttr* attribute) noexcept nogil:
    # An attribute's value where it is one text node ("" where it has none), else NULL.
    cdef xmlNode* text = attribute.children
    if text is NULL:
        return <const unsigned char*> b""
    if text.next is NULL and _is_text(text) and text.content is not NULL:
        return <const unsigned char*> text.content
    return NULL


cdef bint _says(const unsigned char* value, const unsigned char* word) noexcept:
    """Whether an ASCII value is ``word`` (lower case) with white space around it and in
    any case: ``value.strip().lower() == word``."""
    cdef const unsigned char* end
    value = _skip_space(value)
    end = _word_at(value, word)
    return end is not NULL and _skip_space(end)[0] == 0


cdef inline bint _has_children(xmlNode* node) noexcept nogil:
    # len(element): its children that lxml counts as elements
    node = node.children
    while node is not NULL:
        if _is_element(node):
            return True
        node = node.next
    return False


def hidden_elements(_Element root not None, rules):
    """segment._hidden_elements: how many elements of ``root``'s document (_xpath_top)
    are hidden; those that go (not inside
    another that goes, and with a parent); the characters of the outermost hidden ones
    that hold elements, and those of ``root``; None where the tree holds what the walk
    leaves to Python.

    ``rules``: segment's core.HiddenRules."""
    cdef _HiddenTest test = _HiddenTest(rules)
    cdef xmlNode* top = _xpath_top(root._c_node)
    cdef xmlNode* node = _first_node(top)
    cdef xmlNode* outer = NULL  # the outermost hidden element open, if any
    cdef xmlNode* going = NULL  # the element open that goes, if any
    cdef Py_ssize_t depth = 0, outer_depth = 0, going_depth = 0, count = 0
    cdef long long page = 0, hidden_chars = 0
    cdef bint counted = False  # ``outer`` holds elements: its text counts
    cdef int hidden
    cdef list going_list = []
    if _attribute_defaults(root._c_node):
        return None
    while node is not NULL:
        if outer is not NULL and depth <= outer_depth and node is not outer:
            outer = NULL
            counted = False
        if going is not NULL and depth <= going_depth and node is not going:
            going = NULL
        if _bail_node(node):
            return None
        if _is_text(node) and counted:
            hidden_chars += _chars(<const unsigned char*> node.content)
        elif _is_element_node(node):
            hidden = test.test(node) if node.properties is not NULL else 0
            if hidden < 0:
                hidden = bool(test.is_hidden(elementFactory(root._doc, node)))
            if hidden:
                count += 1
                if outer is NULL:
                    outer, outer_depth, counted = node, depth, _has_children(node)
                if going is NULL and node.parent is not NULL and _is_element(node.parent):
                    going, going_depth = node, depth
                    going_list.append(elementFactory(root._doc, node))
        node = _next_node(node, top, _is_element_node(node), &depth)
    if not count:
        return 0, going_list, 0.0, 0.0
    page = _text_chars(root._c_node)
    if page < 0:
        return None
    return count, going_list, <double> hidden_chars, <double> page
