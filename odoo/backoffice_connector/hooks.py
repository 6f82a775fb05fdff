"""Adopt an existing Odoo Studio setup.

Before this module existed, the same fields and models were created by hand
with Odoo Studio (``state = 'manual'`` rows in ``ir_model`` and
``ir_model_fields``). Python definitions of a field already win over a manual
field of the same name, but a *manual model* would be rebuilt by the registry
from ``ir_model`` and replace the Python class. So, before the module's code is
loaded, the matching manual rows are flagged as code-defined ('base'); the
tables, columns and data stay where they are.

The hook receives ``cr`` on Odoo 16 and ``env`` on Odoo 17/18.
"""

MODELS = ("x_tipo_inversor", "x_evento_contactos")

FIELDS = {
    "res.company": (
        "x_facturas_journal_id", "x_facturas_account",
        "x_gastos_journal_id", "x_gastos_account",
    ),
    "project.project": (
        "x_facturas_journal_id", "x_facturas_account",
        "x_gastos_journal_id", "x_gastos_account",
    ),
    "account.move": ("x_uploaded_by", "x_payment_method", "x_payment_status"),
    "sale.order": ("x_uploaded_by",),
    "res.partner": ("x_studio_owner_employee", "x_studio_tipo_inversor", "x_notes"),
    "x_tipo_inversor": ("x_name", "x_studio_tipo_inversor_descripcion"),
    "x_evento_contactos": ("x_name", "x_tag_ids"),
}


def pre_init_hook(env_or_cr):
    cr = getattr(env_or_cr, "cr", env_or_cr)
    cr.execute(
        "UPDATE ir_model SET state = 'base' WHERE state = 'manual' AND model IN %s",
        [MODELS],
    )
    for model, names in FIELDS.items():
        cr.execute(
            "UPDATE ir_model_fields SET state = 'base'"
            " WHERE state = 'manual' AND model = %s AND name IN %s",
            [model, names],
        )
