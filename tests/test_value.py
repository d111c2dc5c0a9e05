"""Value: the value types textmines defines at start (textmines/value.py) behave as the
NamedTuples they replace."""

from __future__ import annotations

import copy
import pickle

import pytest

from textmines.value import Value


class Tile(Value):
    """Made at module level: pickle finds it by name."""

    cols: int
    rows: int = 1

    @property
    def area(self) -> int:
        return self.cols * self.rows


def test_made_by_position_by_name_and_with_defaults() -> None:
    assert Tile(3, 2) == Tile(cols=3, rows=2) == Tile(3, rows=2) == (3, 2)
    assert Tile(4) == Tile(cols=4) == (4, 1)
    assert Tile(3, 2).cols == 3 and Tile(3, 2).rows == 2 and Tile(3, 2).area == 6


def test_a_tuple_that_unpacks_compares_and_hashes_as_its_values() -> None:
    cols, rows = Tile(3, 2)
    assert (cols, rows) == (3, 2)
    assert hash(Tile(3, 2)) == hash((3, 2))
    assert {Tile(3, 2): "x"}[Tile(3, 2)] == "x"
    assert Tile(2, 9) < Tile(3, 1)
    assert len(Tile(3, 2)) == 2 and isinstance(Tile(3, 2), tuple)


def test_the_namedtuple_helpers() -> None:
    tile = Tile(3, 2)
    assert tile._replace(rows=5) == Tile(3, 5)
    assert type(tile._replace(rows=5)) is Tile
    assert tile._replace() == tile and tile._replace(cols=1, rows=1) == Tile(1, 1)
    with pytest.raises(TypeError, match="no field 'depth'"):
        tile._replace(depth=1)
    assert tile._asdict() == {"cols": 3, "rows": 2}
    assert Tile._fields == ("cols", "rows")
    assert repr(tile) == "Tile(cols=3, rows=2)"


def test_frozen_and_without_other_attributes() -> None:
    tile = Tile(3, 2)
    with pytest.raises(AttributeError):
        tile.cols = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        tile.other = 4  # type: ignore[attr-defined]


def test_copies_and_pickles_are_equal_values() -> None:
    tile = Tile(3, 2)
    for made in (copy.copy(tile), copy.deepcopy(tile), pickle.loads(pickle.dumps(tile))):
        assert made == tile and type(made) is Tile


@pytest.mark.parametrize(
    ("args", "kwargs", "says"),
    [
        ((), {}, "missing 'cols'"),
        ((1, 2, 3), {}, "takes 2 arguments, not 3"),
        ((1,), {"cols": 2}, "'cols' twice"),
        ((1,), {"depth": 2}, "no field 'depth'"),
    ],
)
def test_wrong_arguments_are_a_type_error_that_says_which(
    args: tuple[int, ...], kwargs: dict[str, int], says: str
) -> None:
    with pytest.raises(TypeError, match=says):
        Tile(*args, **kwargs)


def test_a_field_without_a_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="'b' without a default"):

        class Bad(Value):
            a: int = 1
            b: int
