// The rulesh extension: the grammars are declared in package.json; this starts the language
// server, `rulesh lsp`, on stdio for every .rules file.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('rulesh').get('path') || 'rulesh';
  const server = { command, args: ['lsp'], transport: TransportKind.stdio };
  client = new LanguageClient(
    'rulesh',
    'rulesh',
    { run: server, debug: server },
    {
      documentSelector: [{ scheme: 'file', language: 'rules' }],
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher('**/*.rules'),
      },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
