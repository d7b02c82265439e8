from hunter.app.cli import main

raise SystemExit(main())
