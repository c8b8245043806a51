"""torch's ``torch.utils.data._utils`` import path, which programs use to extend collation."""
