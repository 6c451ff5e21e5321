"""The phone view: a page for the players' phones on the local network (``companion run --web``).

Importing this package costs nothing; the server library (Starlette on
uvicorn) is imported only when the view is switched on (:mod:`.server`).
"""
