import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Q

OWNER = "account_owner_matches_kind"


OWNER_MATCHES_KIND = models.CheckConstraint(
    condition=Q(("game__isnull", True), ("kind", "wallet"), ("user__isnull", False))
    | Q(("game__isnull", False), ("kind", "bank"), ("user__isnull", True))
    | Q(("game__isnull", True), ("kind", "house"), ("user__isnull", True)),
    name=OWNER,
)


class Migration(migrations.Migration):
    """The ledger's game columns become foreign keys to games.Game (same column, same data)."""

    dependencies = [
        ("accounts", "0002_ledger_and_player_settings"),
        ("games", "0002_event_version"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="account", name=OWNER),
        migrations.RenameField(model_name="account", old_name="game_id", new_name="game"),
        migrations.AlterField(
            model_name="account",
            name="game",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="bank_account",
                to="games.game",
                verbose_name="game",
            ),
        ),
        migrations.AddConstraint(model_name="account", constraint=OWNER_MATCHES_KIND),
        migrations.RenameField(model_name="transfer", old_name="game_id", new_name="game"),
        migrations.AlterField(
            model_name="transfer",
            name="game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="transfers",
                to="games.game",
                verbose_name="game",
            ),
        ),
    ]
