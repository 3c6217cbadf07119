# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=False
"""The compiled core: per-element work of the Python modules, over libxml2's nodes.

Each function here gives exactly what its Python reference gives (tests/test_core.py
runs both), reads the rules it applies from that module (they are handed over, never
copied), and returns None where a tree holds what it leaves to Python (webclean/core.py).

It walks libxml2's nodes through lxml's public C API: no Python object per element,
only for the elements a result holds or a rule of the Python module is asked about.
"""

from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from cpython.tuple cimport PyTuple_SET_ITEM
from cpython.unicode cimport Py_UNICODE_ISDECIMAL, Py_UNICODE_ISSPACE, PyUnicode_AsUTF8AndSize, PyUnicode_DecodeUTF8
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, strcmp, strlen
from lxml.includes cimport tree
from lxml.includes.etreepublic cimport (
    _Document,
    _Element,
    attributeValueFromNsName,
    elementFactory,
    import_lxml__etree,
    namespacedName,
)
from lxml.includes.tree cimport const_xmlChar, xmlNode

import_lxml__etree()


# --- text ------------------------------------------------------------------------------
# libxml2 holds text as UTF-8. White space is what str.isspace says (Py_UNICODE_ISSPACE),
# so that the lines are those of text.normalise_space and their lengths text.text_length's.


cdef inline Py_ssize_t _code_point(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, Py_UCS4* cp) noexcept nogil:
    """The code point at byte i and its length in bytes; an invalid byte counts as one
    character that is not white space (the line's decoding then fails, and Python runs)."""
    cdef unsigned char b = s[i]
    if b < 0x80:
        cp[0] = b
        return 1
    if b >= 0xC2 and b < 0xE0 and i + 1 < n:
        cp[0] = ((b & 0x1F) << 6) | (s[i + 1] & 0x3F)
        return 2
    if b >= 0xE0 and b < 0xF0 and i + 2 < n:
        cp[0] = ((b & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F)
        return 3
    if b >= 0xF0 and b < 0xF5 and i + 3 < n:
        cp[0] = ((b & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F)
        return 4
    cp[0] = 0xFFFD
    return 1


def _is_space(Py_UCS4 cp):
    """Whether the walk reads ``cp`` as white space (tests compare it with str.isspace)."""
    return Py_UNICODE_ISSPACE(cp)


cdef struct LineText:
    # A line's text as it comes, white space already collapsed (text.normalise_space):
    # a run of white space is written as one space before the next character, if any.
    char* data
    Py_ssize_t size
    Py_ssize_t capacity
    bint space  # white space seen after the last character
    Py_ssize_t chars  # characters other than white space (text.text_length)


cdef int _reserve(LineText* line, Py_ssize_t more) except -1:
    cdef Py_ssize_t capacity
    cdef char* data
    if line.size + more <= line.capacity:
        return 0
    capacity = max(2 * line.capacity, line.size + more, 256)
    data = <char*> realloc(line.data, capacity)
    if data is NULL:
        raise MemoryError()
    line.data = data
    line.capacity = capacity
    return 0


cdef Py_ssize_t _add_text(LineText* line, const unsigned char* s) except -1:
    """Append a text node's content; how many of its characters are not white space."""
    cdef Py_ssize_t i = 0, n, width, k, chars = 0
    cdef Py_UCS4 cp = 0
    cdef char* out
    if s is NULL:
        return 0
    n = strlen(<const char*> s)
    _reserve(line, 2 * n)  # a space before each character at most
    out = line.data
    while i < n:
        # An ASCII character is its byte: written without _code_point and memcpy.
        if s[i] < 0x80:
            cp, width = s[i], 1
        else:
            width = _code_point(s, i, n, &cp)
        if Py_UNICODE_ISSPACE(cp):
            if line.size:
                line.space = True
        else:
            if line.space:
                out[line.size] = b" "
                line.size += 1
                line.space = False
            for k in range(width):
                out[line.size + k] = s[i + k]
            line.size += width
            chars += 1
        i += width
    line.chars += chars
    return chars


cdef inline void _clear(LineText* line) noexcept nogil:
    line.size = 0
    line.space = False
    line.chars = 0


cdef inline bint _is_text(xmlNode* node) noexcept nogil:
    return node.type == tree.XML_TEXT_NODE or node.type == tree.XML_CDATA_SECTION_NODE


cdef inline bint _is_xinclude(xmlNode* node) noexcept nogil:
    return node.type == tree.XML_XINCLUDE_START or node.type == tree.XML_XINCLUDE_END


cdef Py_ssize_t _add_run(LineText* line, xmlNode* node) except -1:
    """Append the run of text nodes from ``node`` on, as lxml's .text (of the parent,
    from its first child) and .tail (from the next sibling) read them."""
    cdef Py_ssize_t chars = 0
    while node is not NULL:
        if _is_text(node):
            chars += _add_text(line, <const unsigned char*> node.content)
        elif not _is_xinclude(node):
            break
        node = node.next
    return chars



# How a Line or a Unit is made in C (_named_row, _set).
include "_core_tuples.pxi"


# What an element's class and id words name (segment._attr_marks), and what the walk keeps of it.
include "_core_marks.pxi"
# What attr_marks gave for each element's class and id met, kept by their bytes.
include "_core_names.pxi"


# --- segment.segment ----------------------------------------------------------------------

# What segment's sets say of a tag, as bits.
cdef enum:
    BLOCK = 1
    BREAK = 2
    NOISE_TAG = 4
    FURNITURE_TAG = 8
    BESIDE_TAG = 16
    STORY_TAG = 32
    LINK = 64
    FORM = 128

cdef enum:
    TAG_SLOTS = 256  # libxml2 interns a document's tag names: a page has some dozens

cdef struct TagSlot:
    const_xmlChar* name
    int flags
    long long groups
    Py_ssize_t kind  # in _Segmenter.kind_names


cdef struct Marks:
    # segment's _Marks: what is carried down the tree for each open element.
    bint block
    bint in_link
    bint noise
    bint content
    long long groups
    bint furniture
    Py_ssize_t beside  # in _Segmenter.besides, or -1


cdef struct Owner:
    xmlNode* node
    Py_ssize_t level
    Py_ssize_t kind  # the kind of its lines that are not all link, in _Segmenter.kind_names


cdef inline xmlNode* _walked(xmlNode* node) noexcept nogil:
    """``node`` or the first sibling after it that lxml's iterwalk visits: an element, or
    an entity reference (which the walk leaves to Python). iterwalk passes over
    comments and processing instructions, and their tails with them."""
    while node is not NULL and node.type != tree.XML_ELEMENT_NODE and node.type != tree.XML_ENTITY_REF_NODE:
        node = node.next
    return node


cdef inline bint _is_element(xmlNode* node) noexcept nogil:
    # lxml's _isElement: what iterancestors counts.
    return (node.type == tree.XML_ELEMENT_NODE or node.type == tree.XML_COMMENT_NODE
            or node.type == tree.XML_ENTITY_REF_NODE or node.type == tree.XML_PI_NODE)


cdef class _Segmenter:
    """One call of :func:`segment`: the state of segment.segment's walk, in C."""

    cdef _Document doc
    cdef xmlNode* container
    cdef object container_element
    # segment's rules (core.SegmentRules)
    cdef object block_level, line_breaks, noise_tags, tag_groups, furniture_tags, furniture_roles
    cdef object beside_tags, beside_roles, story_tags, attr_marks, takes_entry, text_size, make_line
    cdef object holds_story, tag_kinds, link_kind
    cdef list kind_names  # the kinds of tags met, the other kind first
    cdef LineText names  # the class and id of the element started, as the key of _NAMES
    # segment's settings (config.LinesConfig), as its Python walk reads them: Python
    # objects, so that they compare and multiply as they do there, whatever their type
    cdef object passed_max_share, story_paragraph_chars, all_link
    cdef bint all_link_float  # all_link is a float: compared as a C double
    cdef double all_link_value
    cdef double size  # the container's characters, counted when first needed
    cdef list lines
    cdef list besides
    cdef LineText text
    cdef long long linked, link_start
    cdef Marks* stack
    cdef Py_ssize_t depth, stack_capacity
    cdef Owner* owners
    cdef Py_ssize_t owner_count, owner_capacity
    cdef TagSlot tags[TAG_SLOTS]
    cdef int tags_used
    cdef bint aborted
    cdef bint attribute_defaults  # the document's DTD may give an element an attribute it does not write

    def __dealloc__(self):
        free(self.text.data)
        free(self.names.data)
        free(self.stack)
        free(self.owners)

    cdef int tag_flags(self, xmlNode* node, long long* groups, Py_ssize_t* kind) except -1:
        cdef size_t slot = 0
        cdef int flags = 0
        cdef TagSlot* entry
        if node.ns is NULL:
            slot = (<size_t> node.name >> 3) % TAG_SLOTS
            while self.tags[slot].name is not NULL:
                if self.tags[slot].name == node.name:
                    groups[0] = self.tags[slot].groups
                    kind[0] = self.tags[slot].kind
                    return self.tags[slot].flags
                slot = (slot + 1) % TAG_SLOTS
        tag = namespacedName(node)
        if tag in self.block_level:
            flags |= BLOCK
        if tag in self.line_breaks:
            flags |= BREAK
        if tag in self.noise_tags:
            flags |= NOISE_TAG
        if tag in self.furniture_tags:
            flags |= FURNITURE_TAG
        if tag in self.beside_tags:
            flags |= BESIDE_TAG
        if tag in self.story_tags:
            flags |= STORY_TAG
        if tag == "a":
            flags |= LINK
        if tag == "form":
            flags |= FORM
        groups[0] = self.tag_groups.get(tag, 0)
        kind[0] = 0
        tag_kind = self.tag_kinds.get(tag)
        if tag_kind is not None:
            if tag_kind not in self.kind_names:
                self.kind_names.append(tag_kind)
            kind[0] = self.kind_names.index(tag_kind)
        if node.ns is NULL and self.tags_used < TAG_SLOTS // 2:
            entry = &self.tags[slot]
            entry.name = node.name
            entry.flags = flags
            entry.groups = groups[0]
            entry.kind = kind[0]
            self.tags_used += 1
        return flags

    cdef _Element element(self, xmlNode* node):
        return elementFactory(self.doc, node)

    cdef bint small(self, _Element element) except -1:
        """Whether ``element`` holds under passed_max_share of the container's characters."""
        if not self.size:
            self.size = self.chars(self.container_element)
        return self.chars(element) < self.passed_max_share * self.size

    cdef object chars(self, _Element element):
        """text_size of ``element`` (XPath's string-length, a float): counted in C where
        the walk of text reads the tree (_text_chars)."""
        cdef long long chars = _text_chars(element._c_node)
        return self.text_size(element) if chars < 0 else float(chars)

    cdef int push(self, Marks marks) except -1:
        cdef Marks* grown
        if self.depth == self.stack_capacity:
            self.stack_capacity = max(64, 2 * self.stack_capacity)
            grown = <Marks*> realloc(self.stack, self.stack_capacity * sizeof(Marks))
            if grown is NULL:
                raise MemoryError()
            self.stack = grown
        self.stack[self.depth] = marks
        self.depth += 1
        return 0

    cdef int push_owner(self, xmlNode* node, Py_ssize_t level, Py_ssize_t kind) except -1:
        cdef Owner* grown
        if self.owner_count == self.owner_capacity:
            self.owner_capacity = max(64, 2 * self.owner_capacity)
            grown = <Owner*> realloc(self.owners, self.owner_capacity * sizeof(Owner))
            if grown is NULL:
                raise MemoryError()
            self.owners = grown
        self.owners[self.owner_count].node = node
        self.owners[self.owner_count].level = level
        self.owners[self.owner_count].kind = kind
        self.owner_count += 1
        return 0

    cdef int flush(self, Owner owner, Marks marks) except -1:
        """segment's flush: the line so far becomes a Line (a tuple of its fields made
        the named tuple, as its own constructor makes it)."""
        cdef Py_ssize_t length = self.text.chars
        cdef double ratio
        cdef bint all_links
        cdef tuple fields
        try:
            text = PyUnicode_DecodeUTF8(self.text.data, self.text.size, NULL)
        except UnicodeDecodeError:
            self.aborted = True  # nor would lxml read it: the Python path says how it fails
            return 0
        _clear(&self.text)
        if text:
            ratio = <double> self.linked / length if self.linked < length else 1.0
            element = self.element(owner.node)
            beside = self.besides[marks.beside] if marks.beside >= 0 else None
            all_links = ratio >= self.all_link_value if self.all_link_float else ratio >= self.all_link
            kind = self.link_kind if all_links else self.kind_names[owner.kind]
            line = _named_row(self.make_line, 11)
            _set(line, 0, text)
            _set(line, 1, element)
            _set(line, 2, kind)
            _set(line, 3, ratio)
            _set(line, 4, bool(marks.noise))
            _set(line, 5, bool(marks.content))
            _set(line, 6, marks.groups)
            _set(line, 7, length)
            _set(line, 8, owner.level)
            _set(line, 9, bool(marks.furniture))
            _set(line, 10, beside)
            self.lines.append(line)
        self.linked = self.link_start = 0
        return 0

    cdef int end_line(self, Marks marks) except -1:
        # A block's start or end, or a <br>: the line so far ends ("solid": it holds more
        # than white space, which is all a collapsed text of some size holds).
        if self.text.size:
            self.flush(self.owners[self.owner_count - 1], marks)
        else:
            _clear(&self.text)
        return 0

    cdef int start(self, xmlNode* node) except -1:
        """segment's start event; 1 to walk the element's children, 0 to pass over them."""
        cdef long long tag_groups = 0
        cdef Py_ssize_t kind = 0
        cdef int flags = self.tag_flags(node, &tag_groups, &kind)
        cdef Marks state = self.stack[self.depth - 1]
        cdef Marks marks
        cdef bint is_container = node is self.container
        cdef bint block = (flags & BLOCK) or is_container
        cdef bint noisy = flags & NOISE_TAG, contenty = False, passed = False, gallery = False, skip = False
        cdef bint furniture, beside_here
        cdef Py_ssize_t chars
        cdef NamedMarks named
        element = None
        if block or flags & BREAK:
            self.end_line(state)
        marks.noise, marks.content = state.noise, state.content
        marks.groups = state.groups | tag_groups
        if flags & FORM:
            element = self.element(node)
            passed = bool(self.takes_entry(element))
        if _named(node, self.attribute_defaults, &self.names, self.attr_marks, &named):
            noisy = noisy or named.noise
            contenty = named.content
            marks.groups |= named.groups
            passed = passed or named.consent
            gallery = named.gallery
        if passed and not is_container:
            if element is None:
                element = self.element(node)
            skip = self.small(element)
        furniture = state.furniture
        marks.beside = state.beside
        role = None
        if self.attribute_defaults or _has_attribute(node, <const_xmlChar*> b"role"):
            role = attributeValueFromNsName(node, NULL, <const_xmlChar*> b"role")
        if not (furniture or skip) and (flags & FURNITURE_TAG or role is not None and role in self.furniture_roles) and not is_container:
            if element is None:
                element = self.element(node)
            furniture = self.small(element) or not self.holds_story(element, chars=self.story_paragraph_chars)
        beside_here = flags & BESIDE_TAG or role is not None and role in self.beside_roles or (gallery and not flags & STORY_TAG and not is_container)
        if beside_here:
            if element is None:
                element = self.element(node)
            self.besides.append(element)
            marks.beside = len(self.besides) - 1
        if noisy or contenty:
            marks.noise, marks.content = noisy, contenty
        if flags & LINK and not state.in_link:
            self.link_start = self.linked
        marks.block = block
        marks.in_link = state.in_link or flags & LINK
        marks.furniture = furniture
        self.push(marks)
        if block:
            self.push_owner(node, self.owners[0].level + self.depth - 2, kind)
        if skip:
            return 0  # its end comes next: its tail stays the page's
        chars = _add_run(&self.text, node.children)
        if marks.in_link:
            self.linked += chars
        return 1

    cdef int end(self, xmlNode* node) except -1:
        """segment's end event."""
        cdef Marks closed = self.stack[self.depth - 1]
        cdef Marks state
        cdef Py_ssize_t length
        self.depth -= 1
        if closed.block:
            self.end_line(closed)
            self.owner_count -= 1
        state = self.stack[self.depth - 1]  # the walk's first entry: segment's "top"
        if node is not self.container:
            length = _add_run(&self.text, node.next)
            if closed.in_link and (state.in_link or length <= self.linked - self.link_start):
                self.linked += length
        return 0

    cdef int walk(self) except -1:
        cdef xmlNode* node = self.container
        cdef xmlNode* following
        cdef bint descend
        self.attribute_defaults = _attribute_defaults(node)
        descend = self.start(node)
        while not self.aborted:
            following = _walked(node.children) if descend else NULL
            while following is NULL:
                self.end(node)
                if node is self.container or self.aborted:
                    return 0
                following = _walked(node.next)
                if following is NULL:
                    node = node.parent
            if following.type != tree.XML_ELEMENT_NODE:
                self.aborted = True
                return 0
            node = following
            descend = self.start(node)
        return 0


def segment(_Element container not None, rules, settings):
    """segment.segment's lines of ``container`` under ``settings``, or None for a tree the
    walk leaves to Python (an entity reference in it, text that is not UTF-8).

    ``rules``: segment's sets and functions (core.SegmentRules); ``settings``: the
    config.LinesConfig that segment.segment is given, whose thresholds it reads as the
    Python walk does (passed_max_share, story_paragraph_chars, all_link).
    """
    cdef _Segmenter walk = _Segmenter()
    cdef Marks top
    cdef xmlNode* node = container._c_node
    cdef xmlNode* parent
    cdef Py_ssize_t base = 0, kind = 0
    cdef long long groups = 0
    if node.type != tree.XML_ELEMENT_NODE:
        return None
    parent = node.parent
    while parent is not NULL and _is_element(parent):
        base += 1
        parent = parent.parent
    walk.doc = container._doc
    walk.container = node
    walk.container_element = container
    (walk.block_level, walk.line_breaks, walk.noise_tags, walk.tag_groups, walk.furniture_tags, walk.furniture_roles,
     walk.beside_tags, walk.beside_roles, walk.story_tags, walk.attr_marks, walk.takes_entry, walk.text_size,
     walk.make_line, walk.holds_story, walk.tag_kinds, other_kind, walk.link_kind) = rules
    if None in walk.furniture_roles or None in walk.beside_roles:
        raise TypeError("the rules' roles are strings: an element without a role has none of them")
    if not _named_tuple(walk.make_line) or len(walk.make_line._fields) != 11:
        raise TypeError("the rules' line must be a named tuple of segment.Line's eleven fields")
    walk.passed_max_share = settings.passed_max_share
    walk.story_paragraph_chars = settings.story_paragraph_chars
    walk.all_link = settings.all_link
    walk.all_link_float = type(walk.all_link) is float
    if walk.all_link_float:
        walk.all_link_value = walk.all_link
    walk.kind_names = [other_kind]
    walk.lines = []
    walk.besides = []
    top.block, top.in_link, top.noise, top.content, top.groups, top.furniture, top.beside = True, False, False, False, 0, False, -1
    walk.push(top)  # segment's "top": the stack is never empty
    walk.tag_flags(node, &groups, &kind)
    walk.push_owner(node, base, kind)  # segment's first owner; the container's own entry follows it
    walk.walk()
    if walk.aborted:
        return None
    return walk.lines


# page_type.py's walks: the runs of repeated items and the page's elements.
include "_core_page.pxi"
# lexicon.py's lookups over a page's texts, and the text columns of line_features.py.
include "_core_lexicon.pxi"
# The unit columns of line_features.py.
include "_core_units.pxi"
# Step 1's count on the lines (region.py).
include "_core_region.pxi"
# The columns of line_features.line_units, and the units made of them (units.py).
include "_core_columns.pxi"
# The noise filter's sentences (tokenize.py) and decisions (denoise.py).
include "_core_denoise.pxi"
# The parse's clean-up (parse.py) and the hidden elements (segment.drop_hidden).
include "_core_parse.pxi"
# The page's bytes before the parse (parse.py).
include "_core_markup.pxi"
# The page type's scores and the confidence's row and trees (page_type.py, confidence.py).
include "_core_pagetype.pxi"
# The elements the page's metadata is read from (metadata.py).
include "_core_metadata.pxi"
