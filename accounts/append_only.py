"""Rows written once and never changed: the ledger's transfers, the staff's audit trail."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models


class AppendOnlyQuerySet(models.QuerySet[Any]):
    def update(self, **kwargs: Any) -> int:
        raise TypeError(self.model.NEVER_EDITED)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError(self.model.NEVER_EDITED)


class AppendOnly(models.Model):
    """A model whose rows are only ever added; ``NEVER_EDITED`` says what to do instead."""

    NEVER_EDITED: ClassVar[str] = "These rows are never edited or deleted."

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError(self.NEVER_EDITED)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError(self.NEVER_EDITED)
