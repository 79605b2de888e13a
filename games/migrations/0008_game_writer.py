from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_table_busy_until"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="writer",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
    ]
