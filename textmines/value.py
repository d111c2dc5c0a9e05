"""Value: an immutable value type that costs little to define.

A ``Value`` subclass is a tuple with named fields, like a ``typing.NamedTuple``: its fields
are its annotations, in order, with their defaults; instances are made by position or by
name, compare and hash as tuples, unpack, and have ``_replace``, ``_asdict``, ``_fields`` and
a ``repr`` that names the fields. mypy checks them as frozen dataclasses
(``dataclass_transform``).

Why not NamedTuple: defining one compiles its ``__new__`` from source (``eval``) when its
module loads. On Python 3.11 that is 0.7 to 1.9 million instructions per class, against
about 0.15 million for a Value, and textmines defines some 30 of them before its first frame
(``benchmarks/startup.py``; docs/development.md). A Value's constructor is one generic
``__new__``; its fields are ``itemgetter`` properties.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any, ClassVar, Self, dataclass_transform

_MISSING: Any = object()


@dataclass_transform(frozen_default=True)
class _ValueType(type):
    """Makes each Value class: its fields from its annotations, a read-only property for each,
    its defaults kept aside, no ``__dict__`` on its instances."""

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _ValueType:
        annotations: Mapping[str, Any] = namespace.get("__annotations__", {})
        fields = tuple(
            field
            for field, annotation in annotations.items()
            if not str(annotation).startswith(("ClassVar", "typing.ClassVar"))
        )
        if fields and any(getattr(base, "_fields", ()) for base in bases):
            raise TypeError(f"{name}: a Value with fields cannot extend another one")
        defaults = {field: namespace.pop(field) for field in fields if field in namespace}
        started = False
        for field in fields:
            if field in defaults:
                started = True
            elif started:
                raise TypeError(f"{name}: field {field!r} without a default follows one with")
        for index, field in enumerate(fields):
            namespace[field] = property(itemgetter(index), doc=f"Field {index}: {field}")
        namespace.setdefault("__slots__", ())
        if fields:
            namespace["_fields"] = fields
            namespace["_field_defaults"] = defaults
            namespace["__match_args__"] = fields
        return super().__new__(mcs, name, bases, namespace, **kwargs)


class Value(tuple[Any, ...], metaclass=_ValueType):
    """The base of every value class (see the module's doc)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _field_defaults: ClassVar[dict[str, Any]] = {}

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        if kwargs or len(args) != len(cls._fields):
            args = cls._arguments(args, kwargs)
        return tuple.__new__(cls, args)

    @classmethod
    def _arguments(cls, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Every field's value, from the arguments by position and by name and the defaults;
        ``TypeError`` as for a function call with the wrong arguments."""
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__} takes {len(fields)} arguments, not {len(args)}")
        unknown = [name for name in kwargs if name not in fields]
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
        twice = [name for name in fields[: len(args)] if name in kwargs]
        if twice:
            raise TypeError(f"{cls.__name__} got {twice[0]!r} twice")
        values = list(args)
        for name in fields[len(args) :]:
            value = kwargs.get(name, cls._field_defaults.get(name, _MISSING))
            if value is _MISSING:
                raise TypeError(f"{cls.__name__} is missing {name!r}")
            values.append(value)
        return tuple(values)

    def _replace(self, **changes: Any) -> Self:
        """This value with the fields named in ``changes`` changed."""
        values = list(self)
        fields = self._fields
        for name, value in changes.items():
            if name not in fields:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            values[fields.index(name)] = value
        return tuple.__new__(type(self), values)

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, in order."""
        return dict(zip(self._fields, self, strict=True))

    def __getnewargs__(self) -> tuple[Any, ...]:
        # Copies and pickles are made by position, not from one tuple argument.
        return tuple(self)

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in self._asdict().items())
        return f"{type(self).__name__}({values})"


__all__ = ["Value"]
