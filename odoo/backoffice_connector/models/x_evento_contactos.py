from odoo import fields, models


class EventoContactos(models.Model):
    """A contact list gathered at an event.

    A contact created from the console may point at the list it came from
    (res.partner.from_event_assistant); the list's tags are the categories the
    console proposes for such contacts.
    """

    _name = "x_evento_contactos"
    _inherit = ["backoffice.list.mixin"]
    _description = "Event contact list"
    _rec_name = "x_name"
    _order = "id desc"

    x_name = fields.Char(string="Name")
    event_id = fields.Many2one("event.event", string="Event", required=True, ondelete="cascade", index=True)
    x_tag_ids = fields.Many2many(
        "res.partner.category",
        "x_evento_contactos_category_rel",
        "evento_id",
        "category_id",
        string="Contact tags",
    )

    _backoffice_list_fields = (("x_name", {}), ("event_id", {}), ("x_tag_ids", {"widget": "many2many_tags"}))
    _backoffice_action_name = "Event contact lists"
