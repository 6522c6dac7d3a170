"""The domain: game records without Flask or Celery.

Entry points (``service/api``, ``service/web``) and the workers call into this
package; it calls the engines. See docs/architecture.md for the layers.
"""
