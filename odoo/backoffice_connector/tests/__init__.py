from . import test_fields
from . import test_models
from . import test_journal_settings
from . import test_account_move
from . import test_hooks
from . import test_journeys
