"""Combination printed in greyscale (issue 42.4): a piece shows its colour by a pattern of
lines across it as well as by its fill, so that pieces of two colours (and two attacks)
stay apart on a black-and-white copy. The pictures are rasterised by cairo, turned grey, and
cut at the middle grey as a photocopier would."""
import itertools
import xml.etree.ElementTree as ET

from PIL import ImageChops

from puzzle_engine_plugins.combination.drawing import PALETTE, render_svg
from puzzle_engine_plugins.combination.level import ATTACKS, COLOURS, Level, Piece
from render_support import NS, cli, placed, raster_svg
from support import COMBINATION_LEVEL as LEVEL

PX = 8  # pixels per unit of a drawing


def black_and_white(image):
    """The picture in grey (ITU-R 601 weights), every pixel black or white."""
    return image.convert("L").point(lambda p: 0 if p < 128 else 255)


def crop(image, box):
    """The square of side ``2 * half`` pixels centred on (x, y), whole pixels."""
    x, y, half = box
    x0, y0, side = round(x - half), round(y - half), int(2 * half)
    return image.crop((x0, y0, x0 + side, y0 + side))


def apart(a, b, slack=2):
    """Pixels where two black-and-white crops of one size differ, at the best of the
    shifts by up to ``slack`` pixels each way (where the page's scale is not a whole
    number of pixels, one piece falls on the pixels a little differently from another)."""
    w, h = a.size
    inner = b.crop((slack, slack, w - slack, h - slack))
    return min(ImageChops.difference(
        a.crop((slack + dx, slack + dy, w - slack + dx, h - slack + dy)), inner).histogram()[255]
        for dx in range(-slack, slack + 1) for dy in range(-slack, slack + 1))


def pieces_of(svg, scale, origin=(0, 0), k=1.0):
    """Each drawn piece of the key's board: (colour's fill, glyph, its
    centre and half side in pixels), for a drawing at ``origin`` scaled by ``k`` on the picture."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{{{NS['svg']}}}g"):
        if g.get("class") != "piece":
            continue
        disc = g.find("svg:circle", NS)
        cx, cy, r = (float(disc.get(a)) for a in ("cx", "cy", "r"))
        glyph = g.find("svg:text", NS).text
        half = r * 1.13  # the disc, inside the square's lines
        box = ((origin[0] + cx * k) * scale, (origin[1] + cy * k) * scale, half * k * scale)
        out.append((disc.get("fill"), glyph, box))
    return out


def check_told_apart(image, pieces):
    """Two pieces of another colour or attack differ in greyscale in a good many pixels;
    two of the same kind look the same."""
    crops = [((fill, glyph), black_and_white(crop(image, box))) for fill, glyph, box in pieces]
    area = crops[0][1].width * crops[0][1].height
    kinds = set()
    for (kind_a, a), (kind_b, b) in itertools.combinations(crops, 2):
        d = apart(a, b)
        if kind_a == kind_b:
            assert d < 0.002 * area, (kind_a, d, area)
        else:
            kinds.add((kind_a, kind_b))
            assert d > 0.005 * area, (kind_a, kind_b, d, area)
    return kinds


def test_every_colour_and_attack_is_told_apart_in_greyscale():
    """All 8 colours x 3 attacks on one key: 24 pieces, each pair apart in black and white
    (without the patterns, red and blue, among others, print as one grey)."""
    width = 6
    kinds = [(c, a) for c in range(1, 9) for a in range(1, 4)]
    level = Level(width, 4, (0,) * 24, tuple(Piece(1, c, ATTACKS[a - 1]) for c, a in kinds))
    solution = tuple(4 * c + a for c, a in kinds)
    svg = render_svg(level, solution, COLOURS, ATTACKS)
    image = raster_svg(svg, PX)
    pieces = pieces_of(svg, PX)
    assert {p[0] for p in pieces} == set(PALETTE)
    assert len(check_told_apart(image, pieces)) == 24 * 23 // 2


def test_a_printed_key_tells_its_colours_apart_in_greyscale(tmp_path):
    """The answer key that 'render' prints, rasterised: the rooks, bishops and queens of
    colours a and b are apart in black and white, and the legend's pieces carry the
    patterns of their colours."""
    source = tmp_path / "c.jsonl"
    source.write_text(__import__("json").dumps(LEVEL) + "\n")
    cli("render", source, "--format", "svg", "--per-page", 1, "--solutions",
        "--out", tmp_path / "c.svg")
    page = (tmp_path / "c-key.svg").read_text()
    where = placed(None, 1, page)
    scale = PX * where.box_w / where.width
    image = raster_svg(page, scale)
    drawing = ET.tostring(ET.fromstring(page).find("svg:svg", NS), encoding="unicode")
    pieces = pieces_of(drawing, scale, (where.x, where.y), where.width / where.box_w)
    assert len(pieces) == 10
    kinds = check_told_apart(image, pieces)
    # pieces of one attack in both colours were compared
    assert any(a[1] == b[1] and a[0] != b[0] for a, b in kinds)
    root = ET.fromstring(page)
    legend = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "legend"]
    lines = [len([e for e in g if e.get("class") == "pattern"]) for g in legend]
    fills = [g.find("svg:circle", NS).get("fill") for g in legend]
    # colour a is plain, colour b crossed by its lines
    assert {(f, n > 0) for f, n in zip(fills, lines)} == {(PALETTE[0], False), (PALETTE[1], True)}


def test_the_patterns_leave_8x8_levels_four_to_a_page(tmp_path):
    """The patterns are lines, not text: the sheet's smallest text stays the list's, so
    four 8x8 levels still share an A4 page at 8 points (a letter on each piece did not)."""
    import json
    level = {**LEVEL, "params": {**LEVEL["params"], "width": 8, "height": 8, "colours": 3},
             "board": ["........"] * 8,
             "pieces": "2 bishop b, 1 queen b, 2 queen a, 1 rook c, 3 bishop a, 1 rook b"}
    source = tmp_path / "c8.jsonl"
    source.write_text((json.dumps(level) + "\n") * 4)
    cli("render", source, "--format", "svg", "--out", tmp_path / "c8.svg")
    page = (tmp_path / "c8.svg").read_text()
    assert len(ET.fromstring(page).findall("svg:svg", NS)) == 4
