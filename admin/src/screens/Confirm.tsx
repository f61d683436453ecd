import type { ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';

/** A button that asks first: the action runs only after "Confirm" in a modal dialog. */
export function ConfirmButton(props: {
  label: string;
  title: string;
  children: ReactNode;
  onConfirm: () => void;
  isDisabled?: boolean;
}) {
  return (
    <DialogTrigger>
      <Button className="button danger" isDisabled={props.isDisabled}>
        {props.label}
      </Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog" role="alertdialog">
          {({ close }) => (
            <>
              <Heading slot="title">{props.title}</Heading>
              <p>{props.children}</p>
              <div className="actions">
                <Button className="button" onPress={close} autoFocus>
                  Cancel
                </Button>
                <Button
                  className="button danger"
                  onPress={() => {
                    close();
                    props.onConfirm();
                  }}
                >
                  Confirm
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
