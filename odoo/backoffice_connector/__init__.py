from . import models
from .hooks import pre_init_hook
