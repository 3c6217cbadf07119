"""webclean.warc_ranges: a WARC read in byte ranges gives every item of the whole read, each once."""

from __future__ import annotations

import gzip
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("warcio")

from test_warc import build_warc, garble, member_offsets  # noqa: E402

from webclean.warc import WarcDamage, WarcEnd, WarcItem, iter_warc, iter_warc_range  # noqa: E402
from webclean.warc_ranges import ByteRange, byte_ranges, splittable  # noqa: E402

WARCIO = Path(__file__).resolve().parent / "fixtures" / "warcio"
# Bodies of many sizes; the random bytes do not compress, so some members are long.
NOISE = random.Random(5)
BODIES = [(b"<p>page %d</p>" % n + NOISE.randbytes(NOISE.choice([0, 300, 5000, 20000])), []) for n in range(16)]
GZIPPED = build_warc(BODIES)
PLAIN = build_warc(BODIES, compress=False)


def write(tmp_path: Path, data: bytes, name: str = "crawl.warc.gz") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def in_ranges(path: str, ranges: list[ByteRange]) -> tuple[list[WarcItem], Counter[str], list[WarcEnd]]:
    """Every range's items but its end, in order; the records the ranges count; their ends."""
    items: list[WarcItem] = []
    counts: Counter[str] = Counter()
    ends = []
    for start, stop in ranges:
        *read, end = iter_warc_range(path, start, stop)
        assert isinstance(end, WarcEnd) and not any(isinstance(i, WarcEnd) for i in read)
        items += read
        counts.update(end.counts)
        ends.append(end)
    return items, counts, ends


def assert_as_whole(path: str, ranges: list[ByteRange]) -> list[WarcItem]:
    """The ranges give the whole read's pages and damage, the same values in the same order,
    count its records, and end complete but for where the whole read ends."""
    *whole, end = iter_warc(path)
    items, counts, ends = in_ranges(path, ranges)
    assert items == whole
    assert counts == Counter(end.counts)
    assert [e for e in ends if not e.complete] == ([] if end.complete else [end])
    return whole


def test_byte_ranges_are_of_one_size_but_the_last_which_runs_to_the_end():
    assert byte_ranges(10, 3) == [(0, 3), (3, 6), (6, 9), (9, None)]
    assert byte_ranges(12, 4) == [(0, 4), (4, 8), (8, None)]
    assert byte_ranges(10, 10) == byte_ranges(0, 10) == [(0, None)]


@pytest.mark.parametrize("data", [GZIPPED, PLAIN], ids=["gzip", "plain"])
@pytest.mark.parametrize("task_bytes", [200, 997, 4096, 30_000, 10**9])
def test_ranges_give_every_record_of_the_whole_read_once(tmp_path, data, task_bytes):
    path = write(tmp_path, data)
    assert splittable(path)
    whole = assert_as_whole(path, byte_ranges(len(data), task_bytes))
    assert len(whole) == len(BODIES)


def test_ranges_cut_at_and_beside_every_member_boundary(tmp_path):
    path = write(tmp_path, GZIPPED)
    members = member_offsets(GZIPPED)[1:-1]
    for shift in (-1, 0, 1):
        cuts = sorted(m + shift for m in members)
        assert_as_whole(path, list(zip([0, *cuts], [*cuts, None])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=1, max_value=len(PLAIN) - 1), compress=st.booleans())
def test_any_cut_in_two_gives_the_whole_read(tmp_path, cut, compress):
    data = GZIPPED if compress else PLAIN
    assert_as_whole(write(tmp_path, data), [(0, min(cut, len(data) - 1)), (min(cut, len(data) - 1), None)])


def damaged_file(where: str) -> tuple[bytes, int, int]:
    """The WARC with member 5 corrupt (its gzip header, or its data), and where that member starts and the next."""
    members = member_offsets(GZIPPED)
    start, following = members[5], members[6]
    span = (start, start + 8) if where == "header" else (start + 100, start + 140)
    return garble(GZIPPED, *span), start, following


@pytest.mark.parametrize("where", ["header", "data"])
def test_a_corrupt_member_across_a_range_boundary_gives_one_damaged_row(tmp_path, where):
    data, start, following = damaged_file(where)
    path = write(tmp_path, data)
    *whole, _ = iter_warc(path)
    damage = [i for i in whole if isinstance(i, WarcDamage)]
    assert [(d.offset, d.resumed) for d in damage] == [(start, following)]
    for cut in (start - 1, start, start + 1, start + 5, start + 120, start + 200, following - 1, following, following + 1):
        items = assert_as_whole(path, [(0, cut), (cut, cut + 3000), (cut + 3000, None)])
        assert [i for i in items if isinstance(i, WarcDamage)] == damage


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=1, max_value=len(GZIPPED) - 1), where=st.sampled_from(["header", "data"]))
def test_any_cut_of_a_damaged_file_gives_its_damage_once(tmp_path, cut, where):
    assert_as_whole(write(tmp_path, damaged_file(where)[0]), [(0, cut), (cut, None)])


def test_a_warc_line_inside_a_line_of_a_payload_starts_no_range(tmp_path):
    # A cut right at "WARC/1.0" in the middle of a line: that is no record, and the range
    # before it reads the record that holds it.
    data = build_warc([(b"<p>one</p>", []), (b"<p>quoted: xWARC/1.0\r\nWARC-Type: response\r\n</p>", []), (b"<p>three</p>", [])], compress=False)
    cut = data.index(b"xWARC/1.0") + 1
    path = write(tmp_path, data, "crawl.warc")
    whole = assert_as_whole(path, [(0, cut), (cut, None)])
    assert len(whole) == 3 and not any(isinstance(i, WarcDamage) for i in whole)


def test_a_warc_compressed_as_one_gzip_stream_stays_whole(tmp_path):
    path = write(tmp_path, gzip.compress(PLAIN))
    assert not splittable(path)
    ranges = byte_ranges(len(gzip.compress(PLAIN)), 1000)
    items, counts, ends = in_ranges(path, ranges)
    # The range at byte 0 reads the whole file; the others read nothing.
    assert items == list(iter_warc(path))[:-1] and len(items) == len(BODIES)
    assert counts == {"response": len(BODIES)} and all(e.complete and not e.counts for e in ends[1:])


@pytest.mark.parametrize("name", ["example.arc", "example.arc.gz", "example-wrong-chunks.warc.gz"])
def test_arc_files_and_members_that_do_not_hold_one_record_are_not_cut(name):
    path = str(WARCIO / name)
    assert not splittable(path)
    assert_as_whole(path, [(0, 100), (100, 500), (500, None)])


def test_a_later_member_of_two_records_stops_its_range_and_says_why(tmp_path):
    members = member_offsets(GZIPPED)
    two = gzip.compress(gzip.decompress(GZIPPED[members[8] : members[10]]))
    path = write(tmp_path, GZIPPED[: members[8]] + two + GZIPPED[members[10] :])
    assert splittable(path)  # as far as its first member tells
    _, _, ends = in_ranges(path, [(0, members[4]), (members[4], None)])
    assert ends[0].complete
    assert not ends[1].complete and "input.task_bytes" in ends[1].error
