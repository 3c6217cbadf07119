# The elements the page's metadata is read from (metadata.py), included in
# webclean/_core.pyx: the same module, its cimports and helpers (_Tags, _first_node,
# _next_node, _is_element_node, _has_attribute, _attribute_defaults) in scope. One walk
# finds what metadata.py finds with an XPath and two iter() walks; reading the
# elements stays Python's.


cdef bint _in_document(xmlNode* node) noexcept:
    """Whether ``node`` hangs from its document (lxml keeps a removed element in it, unlinked)."""
    while node.parent is not NULL:
        node = node.parent
    return node is <xmlNode*> node.doc


def metadata_elements(_Element root not None, tuple dated not None, str attribute not None, str timed not None,
                      str stamp not None, tuple headings not None):
    """What metadata._metadata_elements finds: the elements of
    ``metadata._DATED_ELEMENTS(root)`` (those named ``dated``, those with an
    ``attribute``, those named ``timed`` with a ``stamp``; each an element in no
    namespace, each attribute in none, as XPath reads them) over ``root``'s whole
    document, as lxml's XPath reads it from any of its elements, in document order;
    then ``root.iter(tag)`` of each of ``headings`` in turn, over ``root``'s own tree.
    One walk where root hangs from its document, else a second one for the headings."""
    cdef _Tags dated_names = _Tags(dated)
    cdef _Tags timed_names = _Tags((timed,))
    cdef _Tags heading_names = _Tags(headings)
    cdef bytes attribute_name = attribute.encode("utf-8"), stamp_name = stamp.encode("utf-8")
    cdef xmlNode* own = root._c_node
    cdef bint attached = own.doc is not NULL and _in_document(own)
    cdef xmlNode* top = <xmlNode*> own.doc if attached else own
    cdef xmlNode* node = _first_node(top)
    cdef Py_ssize_t depth = 1, own_depth = -1, place
    cdef list found = []
    cdef list headed = [[] for _ in headings]
    if not attached and own.doc is not NULL:  # XPath reads the document; root's tree is not in it
        top = <xmlNode*> own.doc
        node = _first_node(top)
        while node is not NULL:
            if _is_element_node(node) and _dated(node, dated_names, timed_names, attribute_name, stamp_name):
                found.append(elementFactory(root._doc, node))
            node = _next_node(node, top, _is_element_node(node), &depth)
        top = node = own
        depth = 1
    while node is not NULL:
        if _is_element_node(node):
            if node is own:
                own_depth = depth
            elif own_depth >= 0 and depth <= own_depth:  # past the end of root's tree
                own_depth = -1
            if attached and _dated(node, dated_names, timed_names, attribute_name, stamp_name):
                found.append(elementFactory(root._doc, node))
            if own_depth >= 0:
                place = heading_names.place(node)
                if place >= 0:
                    (<list> headed[place]).append(elementFactory(root._doc, node))
        node = _next_node(node, top, _is_element_node(node), &depth)
    return found, [element for elements in headed for element in elements]


cdef inline bint _dated(xmlNode* node, _Tags dated_names, _Tags timed_names, bytes attribute_name, bytes stamp_name):
    return (dated_names.place(node) >= 0 or _has_attribute(node, <const_xmlChar*> attribute_name)
            or (timed_names.place(node) >= 0 and _has_attribute(node, <const_xmlChar*> stamp_name)))


def element_names(_Element root not None, tuple attributes not None):
    """The distinct values, other than "", of ``attributes`` (each in no namespace, as
    lxml's get reads it) of the elements of ``root``'s tree (root.iter()), in the order
    first met: what metadata._names_an_element asks about."""
    cdef list encoded = [attribute.encode("utf-8") for attribute in attributes]
    cdef bytes name
    cdef xmlNode* top = root._c_node
    cdef xmlNode* node = top
    cdef Py_ssize_t depth = 0
    cdef bint defaults = _attribute_defaults(top)
    cdef dict seen = {}
    while node is not NULL:
        if _is_element_node(node):
            for name in encoded:
                if defaults or _has_attribute(node, <const_xmlChar*> name):
                    value = attributeValueFromNsName(node, NULL, <const_xmlChar*> name)
                    if value:
                        seen[value] = None
        node = _next_node(node, top, _is_element_node(node), &depth)
    return list(seen)
