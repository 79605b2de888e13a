from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts import ledger


class Command(BaseCommand):
    help = (
        "Checks the chip ledger: cached balances equal their transfers, all balances sum "
        "to zero, no wallet is negative and no closed or finished game's bank holds chips."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = ledger.audit()
        self.stdout.write(
            f"{report.accounts} accounts, {report.transfers} transfers: "
            f"{report.in_wallets} chips in wallets, {report.in_banks} in banks, "
            f"house {report.house}."
        )
        if report.problems:
            raise CommandError(
                f"Ledger audit failed with {len(report.problems)} problem(s):\n"
                + "\n".join(report.problems)
            )
        self.stdout.write(self.style.SUCCESS("Ledger audit passed."))
