"""Generated faces (mahjong.ui.avatars): one per public id, the same every time,
mirrored left to right, decorative to a screen reader."""

import re

from mahjong.ui.avatars import avatar_svg


def cells(svg: str) -> set[tuple[int, int]]:
    return {(int(x), int(y)) for x, y in re.findall(r"M(\d) (\d)h1v1h-1z", svg)}


def test_a_face_is_the_ids_own_the_same_each_time_and_mirrored():
    faces = {key: avatar_svg(key, 28) for key in ("a1b2c3d4e5f6", "zzzzzzzzzzzz", "kgw6rurrdv")}
    assert len(set(faces.values())) == 3  # three ids, three faces
    assert avatar_svg.__wrapped__("kgw6rurrdv", 28) == faces["kgw6rurrdv"]
    for svg in faces.values():
        drawn = cells(svg)
        assert drawn and drawn == {(4 - x, y) for x, y in drawn}
        assert 'aria-hidden="true"' in svg and 'width="28"' in svg


def test_many_ids_give_many_colours_and_never_an_empty_face():
    svgs = [avatar_svg(f"player{n}", 28) for n in range(300)]
    hues = {re.search(r"hsl\((\d+),45%", svg).group(1) for svg in svgs}
    assert len(hues) > 150
    # 5 to 11 of the left three columns lit, so at least 5 of the 25 drawn (the middle
    # column mirrors onto itself) and never all of them: none nearly blank or solid
    assert all(5 <= len(cells(svg)) <= 22 for svg in svgs)
