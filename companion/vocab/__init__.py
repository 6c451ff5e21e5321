"""The product's shared vocabularies, each defined once: colors, zone names, warning reasons.

Every part of the companion speaks these words: the rules engine (which must
stay pure), vision, the tracker, the screens, the app and the docs. So this
package imports nothing but the standard library, and anything may import it.
A second spelling of a zone name or a reason code elsewhere is a bug waiting
to drift; ``tests/vocab`` checks the registries against what the code emits.
"""
