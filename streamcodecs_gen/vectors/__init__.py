"""Binary-compatibility vectors: reference values, independent reference encoders, and the manifest.

The reference encoders here share no code with the templates or the generated runtime, so a template bug cannot
hide in both: a vector is what this module writes, and the generated tests check the generated codecs against it.
"""
