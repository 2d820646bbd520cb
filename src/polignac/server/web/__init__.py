"""The HTTP face: the app factory and its middleware (``app``), what the routes
share (``http``) and every route, one module per page or API (``*_routes``); the one
place a person's name from a request is decided (``person_names``).

The top room: it may import every other room; none imports it.
"""
